import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMkt } from '../helpers/run-mkt.js';

/** A text each heavy module's code holds, to spot it inside whatever chunk the bundler put it in. */
const HEAVY_MARKERS: Record<string, string> = {
  undici: 'llhttp',
  conf: 'ajv',
  ora: 'cli-spinners',
  'hyparquet-writer': 'ParquetWriter',
  sandbox: 'mkt-sandbox-key',
};

/** An ESM loader hook that reports every file mkt loads, on stderr. */
function loadReporter(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mkt-loads-'));
  const hook = join(dir, 'hook.mjs');
  writeFileSync(
    hook,
    "export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n",
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
  return register;
}

const BUNDLE = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));

describe('start-up loads only what the command needs', () => {
  const register = loadReporter();

  it('finds every marker in the bundle, so that the checks below can fail', () => {
    const sources = readdirSync(BUNDLE).filter((file) => file.endsWith('.js')).map((file) => readFileSync(join(BUNDLE, file), 'utf8'));
    for (const [module, marker] of Object.entries(HEAVY_MARKERS)) expect(sources.some((code) => code.includes(marker)), module).toBe(true);
  });

  it.each([['--help'], ['--version'], ['results', '--help']])('mkt %s loads none of undici, conf, ora, the Parquet writer or the sandbox', async (...args) => {
    const run = await runMkt(args, { env: { NODE_OPTIONS: `--import ${register}` } });
    expect(run.code).toBe(0);
    const loaded = run.stderr.split('\n').filter((line) => line.startsWith('LOADED ')).map((line) => fileURLToPath(line.slice(7)));
    expect(loaded.length).toBeGreaterThan(0);
    for (const file of loaded) {
      const code = readFileSync(file, 'utf8');
      for (const [module, marker] of Object.entries(HEAVY_MARKERS)) expect(code.includes(marker), `${file} holds ${module}`).toBe(false);
    }
  });

  it('a data command does load undici, so the markers are right', async () => {
    const run = await runMkt(['--sandbox', 'fees', 'NYSE', '-f', 'json'], { env: { NODE_OPTIONS: `--import ${register}` } });
    expect(run.code).toBe(0);
    const loaded = run.stderr.split('\n').filter((line) => line.startsWith('LOADED ')).map((line) => fileURLToPath(line.slice(7)));
    const sources = loaded.map((file) => readFileSync(file, 'utf8'));
    expect(sources.some((code) => code.includes(HEAVY_MARKERS.undici as string))).toBe(true);
    expect(sources.some((code) => code.includes(HEAVY_MARKERS.sandbox as string))).toBe(true);
  });
});
