import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMkt } from '../helpers/run-mkt.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = join(ROOT, 'dist/bundle/mkt.cjs');

/**
 * The bundle's modules that no help needs: undici, conf, ora, the Parquet writer and the
 * sandbox, but for the sandbox's limits, which the CLI's options share (a module without imports).
 */
const HEAVY = ['node_modules/undici/', 'node_modules/conf/', 'node_modules/ora/', 'node_modules/hyparquet-writer/', 'dist/sandbox/'];
const SHARED = ['dist/sandbox/limits.js'];

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

/**
 * What `mkt args…` ran, read from V8's coverage: the script files it loaded, and the modules of
 * the bundle it initialized. The bundle is one file, but esbuild names each module's
 * initializer after the module's path, and only those a command imports run.
 */
async function whatRuns(args: readonly string[]): Promise<{ scripts: string[]; modules: string[] }> {
  const dir = tempDir('mkt-coverage-');
  const run = await runMkt(args, { env: { NODE_V8_COVERAGE: dir } });
  expect(run.code).toBe(0);
  const scripts: string[] = [];
  const modules: string[] = [];
  for (const file of readdirSync(dir)) {
    for (const script of (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Coverage).result) {
      if (!script.url.startsWith('file:')) continue;
      scripts.push(fileURLToPath(script.url));
      if (script.url !== pathToFileURL(BUNDLE).href) continue;
      for (const { functionName, ranges } of script.functions) {
        if ((ranges[0]?.count ?? 0) > 0 && /^(dist|node_modules)\//.test(functionName)) modules.push(functionName);
      }
    }
  }
  return { scripts, modules };
}

const heavyIn = (modules: string[]) =>
  modules.filter((module) => HEAVY.some((prefix) => module.startsWith(prefix)) && !SHARED.includes(module));

describe('start-up runs only what the command needs', () => {
  it.each(['--help', '--version', 'help results', 'results --help', 'auth login -h'])(
    'mkt %s is answered from bin/ alone: neither the bundle nor anything in node_modules',
    async (line) => {
      const { scripts } = await whatRuns(line.split(' '));
      expect(scripts).toContain(join(ROOT, 'bin/mkt.js'));
      expect(scripts.filter((file) => !file.startsWith(join(ROOT, 'bin/')))).toEqual([]);
    },
  );

  it('mkt results --help --no-color is left to commander in the bundle, and initializes none of undici, conf, ora, the Parquet writer or the sandbox', async () => {
    const { scripts, modules } = await whatRuns(['results', '--help', '--no-color']);
    expect(scripts).toContain(BUNDLE);
    expect(modules).toContain('node_modules/commander/lib/command.js');
    expect(heavyIn(modules)).toEqual([]);
  });

  it('a data command does initialize undici and the sandbox, so the check above can fail', async () => {
    const { modules } = await whatRuns(['--sandbox', 'fees', 'NYSE', '-f', 'json']);
    expect(heavyIn(modules)).toEqual(expect.arrayContaining(['node_modules/undici/lib/dispatcher/agent.js', 'dist/sandbox/server.js']));
  });
});
