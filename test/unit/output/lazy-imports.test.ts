import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Format } from '../../../src/output/formats.js';
import { tempDir } from './helpers.js';

const run = promisify(execFile);
const distWrite = fileURLToPath(new URL('../../../dist/output/write.js', import.meta.url));
/** The packages that writeDataset's modules can load: only the Parquet writer. */
const HEAVY = ['hyparquet-writer'];

/** Logs every module the child resolves, from a loader hook. */
const HOOK = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.MKT_IMPORT_LOG, result.url + '\\n');
  return result;
}`;

/** Writes one small dataset in each format named in argv, in order, each after a line `format <name>` in the log. */
const CHILD = `
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}));
async function* batches() { yield [{ id: 'a', note: 'b' }]; }
for (const format of process.argv.slice(2)) {
  appendFileSync(process.env.MKT_IMPORT_LOG, \`format \${format}\\n\`);
  // Imported after the first line: what write.js loads by itself counts for the first format.
  const { writeDataset } = await import(process.env.MKT_WRITE_URL);
  await writeDataset({ shape: 'list', batches: batches() }, {
    format, outputPath: process.env.MKT_OUT_DIR + '/out.' + format, stdout: process.stdout, color: false, signal: new AbortController().signal,
  });
}
`;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'child.mjs'), CHILD);
});
afterAll(async () => {
  await dir.remove();
});

/**
 * The packages under node_modules that writing one small dataset in each format loads, by format:
 * one process writes them in turn, Parquet last, so that a format's list holds what it loaded first.
 */
async function packagesLoadedByFormat(formats: readonly Format[]): Promise<Map<string, string[]>> {
  const log = join(dir.path, 'imports.log');
  await writeFile(log, '');
  await run(process.execPath, [join(dir.path, 'child.mjs'), ...formats], {
    env: { ...process.env, MKT_IMPORT_LOG: log, MKT_WRITE_URL: pathToFileURL(distWrite).href, MKT_OUT_DIR: dir.path },
  });
  const loaded = new Map<string, string[]>();
  let urls: string[] = [];
  for (const line of (await readFile(log, 'utf8')).split('\n')) {
    const format = /^format (\w+)$/.exec(line)?.[1];
    if (format === undefined) urls.push(line);
    else {
      urls = [];
      loaded.set(format, urls);
    }
  }
  const packageOf = (url: string) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  return new Map([...loaded].map(([format, lines]) => [format, [...new Set(lines.map(packageOf).filter((name) => name !== undefined))]]));
}

describe('each format loads only its own writer', () => {
  it('has a build to test', () => {
    expect(existsSync(distWrite), 'dist/ is missing: run `npm run build`').toBe(true);
  });

  const expected = [
    ['json', []],
    ['ndjson', []],
    ['csv', []],
    ['table', []],
    ['parquet', ['hyparquet-writer']],
  ] as const;
  let loaded: Map<string, string[]>;
  beforeAll(async () => {
    loaded = await packagesLoadedByFormat(expected.map(([format]) => format));
  });

  it.each(expected)('%s loads %j of the heavy packages', (format, heavy) => {
    expect(loaded.get(format)?.filter((name) => HEAVY.includes(name))).toEqual(heavy);
  });
});
