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

const CHILD = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}));
const { writeDataset } = await import(process.env.MKT_WRITE_URL);
async function* batches() { yield [{ id: 'a', note: 'b' }]; }
await writeDataset({ shape: 'list', batches: batches() }, {
  format: process.argv[2], outputPath: process.argv[3], stdout: process.stdout, color: false, signal: new AbortController().signal,
});
`;

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'child.mjs'), CHILD);
});
afterAll(async () => {
  await dir.remove();
});

/** The packages under node_modules that writing one small dataset in `format` loads. */
async function packagesLoadedFor(format: Format): Promise<string[]> {
  const log = join(dir.path, `${format}.log`);
  await writeFile(log, '');
  await run(process.execPath, [join(dir.path, 'child.mjs'), format, join(dir.path, `out.${format}`)], {
    env: { ...process.env, MKT_IMPORT_LOG: log, MKT_WRITE_URL: pathToFileURL(distWrite).href },
  });
  const urls = (await readFile(log, 'utf8')).split('\n');
  return [...new Set(urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((name) => name !== undefined))];
}

describe('each format loads only its own writer', () => {
  it('has a build to test', () => {
    expect(existsSync(distWrite), 'dist/ is missing: run `npm run build`').toBe(true);
  });

  it.each([
    ['json', []],
    ['ndjson', []],
    ['csv', []],
    ['table', []],
    ['parquet', ['hyparquet-writer']],
  ] as const)('%s loads %j of the heavy packages', async (format, expected) => {
    const loaded = await packagesLoadedFor(format);
    expect(loaded.filter((name) => HEAVY.includes(name))).toEqual(expected);
  });
});
