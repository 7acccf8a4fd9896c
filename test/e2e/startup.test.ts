import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMkt } from '../helpers/run-mkt.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A text each heavy module's code holds, to spot it inside whatever chunk the bundler put it in. */
const HEAVY_MARKERS: Record<string, string> = {
  undici: 'llhttp',
  conf: 'ajv',
  ora: 'cli-spinners',
  'hyparquet-writer': 'ParquetWriter',
  sandbox: 'mkt-sandbox-key',
};

/**
 * A module to preload that reports every file mkt loads, on stderr: ES modules as they load
 * (a loader hook), CommonJS modules and JSON files at exit (require.cache).
 */
function loadReporter(): string {
  const dir = tempDir('mkt-loads-');
  const hook = join(dir, 'hook.mjs');
  writeFileSync(
    hook,
    "export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n",
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    [
      "import { createRequire, register } from 'node:module';",
      "import { pathToFileURL } from 'node:url';",
      `register(${JSON.stringify(pathToFileURL(hook).href)});`,
      "process.on('exit', () => { for (const file of Object.keys(createRequire(import.meta.url).cache)) process.stderr.write(`LOADED ${pathToFileURL(file).href}\\n`); });",
      '',
    ].join('\n'),
  );
  return register;
}

/** The files that `mkt args…` loads, each once. */
async function filesLoadedBy(args: readonly string[], register: string): Promise<string[]> {
  const run = await runMkt(args, { env: { NODE_OPTIONS: `--import ${register}` } });
  expect(run.code).toBe(0);
  const loaded = run.stderr.split('\n').filter((line) => line.startsWith('LOADED ')).map((line) => fileURLToPath(line.slice(7)));
  return [...new Set(loaded)];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = join(ROOT, 'dist/bundle/');

describe('start-up loads only what the command needs', () => {
  const register = loadReporter();

  it('finds every marker in the bundle, so that the checks below can fail', () => {
    const sources = readdirSync(BUNDLE).filter((file) => file.endsWith('.js')).map((file) => readFileSync(join(BUNDLE, file), 'utf8'));
    for (const [module, marker] of Object.entries(HEAVY_MARKERS)) expect(sources.some((code) => code.includes(marker)), module).toBe(true);
  });

  it.each(['--help', '--version', 'results --help', 'results --help --no-color'])(
    'mkt %s loads none of undici, conf, ora, the Parquet writer or the sandbox',
    async (line) => {
      const loaded = await filesLoadedBy(line.split(' '), register);
      expect(loaded).toContain(join(ROOT, 'bin/mkt.js'));
      for (const file of loaded) {
        const code = readFileSync(file, 'utf8');
        for (const [module, marker] of Object.entries(HEAVY_MARKERS)) expect(code.includes(marker), `${file} holds ${module}`).toBe(false);
      }
    },
  );

  it.each(['--help', 'help results', 'results --help', 'auth login -h'])(
    'mkt %s is answered from dist/help.json, without the bundle or commander',
    async (line) => {
      const loaded = await filesLoadedBy(line.split(' '), register);
      expect(loaded).toContain(join(ROOT, 'dist/help.json'));
      expect(loaded.filter((file) => file.startsWith(BUNDLE) || file.includes('/node_modules/'))).toEqual([]);
    },
  );

  it('mkt results --help --no-color is left to commander in the bundle, so the check above can fail', async () => {
    const loaded = await filesLoadedBy(['results', '--help', '--no-color'], register);
    expect(loaded).toContain(join(BUNDLE, 'main.js'));
    expect(loaded).not.toContain(join(ROOT, 'dist/help.json'));
  });

  it('a data command does load undici, so the markers are right', async () => {
    const loaded = await filesLoadedBy(['--sandbox', 'fees', 'NYSE', '-f', 'json'], register);
    const sources = loaded.map((file) => readFileSync(file, 'utf8'));
    expect(sources.some((code) => code.includes(HEAVY_MARKERS.undici as string))).toBe(true);
    expect(sources.some((code) => code.includes(HEAVY_MARKERS.sandbox as string))).toBe(true);
  });
});
