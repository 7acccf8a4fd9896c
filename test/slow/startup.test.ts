import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { once } from '../helpers/once.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runMkt } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What no help needs: the HTTP client, the spinner, the exporters and the sandbox; but for five
 * small modules that the commands share, which import nothing heavy: the sandbox's limits, the
 * exporters' types, the sink that the completion scripts' hidden commands write with, the list
 * of formats, and the message for a standard output that fails, which bin/mkt.js holds ready.
 */
const HEAVY = ['src/http/', 'src/api/client.ts', 'src/output/', 'src/sandbox/', 'node_modules/ora/', 'node_modules/hyparquet-writer/'];
const SHARED = ['src/sandbox/limits.ts', 'src/output/exporter.ts', 'src/output/sink.ts', 'src/output/formats.ts', 'src/output/output-path.ts'];

/**
 * What `mkt args…` ran, from the coverage Node writes (NODE_V8_COVERAGE): the files of the
 * checkout it loaded, and the modules of the bundle, dist/bundle/mkt.cjs, that it ran. esbuild
 * wraps each module of the bundle in a function named after its source (`src/http/transport.ts`),
 * called when the module is first imported.
 */
async function filesLoaded(args: readonly string[]): Promise<string[]> {
  const dir = tempDir('mkt-coverage-');
  const run = await runMkt(args, { env: { NODE_V8_COVERAGE: dir } });
  expect(run.code).toBe(0);
  return coveredFiles(dir);
}

/** The files of the checkout, and the modules of the bundle, that the coverage Node wrote in `dir` shows run. */
function coveredFiles(dir: string): string[] {
  const files = new Set<string>();
  for (const file of readdirSync(dir)) {
    for (const script of (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { result: ScriptCoverage[] }).result) {
      if (!script.url.startsWith('file:')) continue;
      files.add(relative(ROOT, fileURLToPath(script.url)));
      for (const { functionName, ranges } of script.functions) {
        if (/^(src|node_modules)\//.test(functionName) && ranges[0]!.count > 0) files.add(functionName);
      }
    }
  }
  return [...files];
}

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { count: number }[] }[];
}

const heavyIn = (files: string[]) => files.filter((file) => HEAVY.some((prefix) => file.startsWith(prefix)) && !SHARED.includes(file));

describe('start-up loads only what the command needs', () => {
  it.each(['--version', '-V'])('mkt %s is answered from bin/mkt.js alone', async (flag) => {
    expect(await filesLoaded([flag])).toEqual(['bin/mkt.js']);
  });

  it.each(['--help', 'help results', 'results --help', 'auth login -h'])('mkt %s loads commander and the program, and nothing heavy', async (line) => {
    const files = await filesLoaded(line.split(' '));
    expect(files).toEqual(expect.arrayContaining(['bin/mkt.js', 'dist/bundle/mkt.cjs', 'src/program.ts', 'node_modules/commander/lib/command.js']));
    expect(files.filter((file) => file.startsWith('dist/') || file.startsWith('node_modules/@duckdb/'))).toEqual(['dist/bundle/mkt.cjs']);
    expect(heavyIn(files)).toEqual([]);
  });

  it.each(['__profiles', '__exchanges', '__fee_category'])('mkt %s, run at every TAB, loads nothing heavy', async (command) => {
    const files = await filesLoaded([command]);
    expect(files).toContain('src/commands/completion.ts');
    expect(heavyIn(files)).toEqual([]);
  });

  it('a data command does load the HTTP client and the sandbox, so the check above can fail', async () => {
    const { files } = await dataCommand();
    expect(heavyIn(files)).toEqual(expect.arrayContaining(['src/http/transport.ts', 'src/sandbox/server.ts']));
  });

  it('mkt mcp loads the MCP SDK and zod, and a data command neither', async () => {
    // By the end of the path: in a worktree, node_modules is a link to another checkout's.
    const mcpModules = (files: string[]) => files.filter((file) => /node_modules\/(@modelcontextprotocol\/sdk|zod)\//.test(file));
    expect(mcpModules(await filesLoaded(['--sandbox', 'mcp']))).toEqual(expect.arrayContaining([expect.stringMatching(/@modelcontextprotocol\/sdk\/.*server\/mcp\.js$/)]));
    expect(mcpModules((await dataCommand()).files)).toEqual([]);
  });

  // On Node 22 and later, importing node:http as an ES module builds its namespace and so loads
  // Node's bundled undici; the shipped bundle is CommonJS and must require it. On Node 20, which
  // has no such getter, this cannot fail.
  it('a data command leaves Node\'s bundled undici unloaded', async () => {
    const { modules } = await dataCommand();
    expect(modules).toContain('NativeModule http');
    expect(modules.filter((name) => name.includes('undici'))).toEqual([]);
  });

  // Loading node:crypto would cost every start of such a sync (src/mirror/sync-state.ts). Writing a
  // file with -o, as the data command does, loads it for the temporary file's random name, so the
  // check can fail.
  it('a sync that finds nothing new leaves node:crypto unloaded', async () => {
    const dirs = await syncedUser();
    const crypto = (modules: string[]) => modules.filter((name) => name.includes('crypto'));
    const again = await modulesLoaded(['sync'], dirs);
    expect(again.stderr).toMatch(/: nothing new · .* · 1 request · /);
    expect(crypto(again.modules)).toEqual([]);
    expect(crypto((await dataCommand()).modules)).not.toEqual([]);
  });

  // DuckDB's package picks its native library by asking detect-libc whether this Linux is musl:
  // loaded by its name, never a file of it by path, the mirror's commands get that check.
  it('an offline page and mkt sql load DuckDB through its package, which checks the libc', async () => {
    const dirs = await syncedUser();
    const duckdbFiles = (files: string[]) => files.filter((file) => /duckdb|detect-libc/.test(file)).map((file) => file.replace(/^.*node_modules\//, ''));
    for (const args of [['results', '--offline', '--limit', '1', '-f', 'json'], ['sql', 'SELECT 1', '-f', 'json']]) {
      const files = duckdbFiles((await modulesLoaded(args, dirs)).files);
      expect(files).toEqual(expect.arrayContaining(['@duckdb/node-api/lib/index.js', '@duckdb/node-bindings/duckdb.js', 'detect-libc/lib/detect-libc.js']));
      expect(files.filter((file) => file.endsWith('duckdb.node'))).toHaveLength(1);
      expect(files.filter((file) => !file.startsWith('@duckdb/') && !file.startsWith('detect-libc/'))).toEqual([]);
    }
  });
});

/**
 * `mkt --sandbox fees NYSE -f json -o <file>`, run once for the four tests of what a data command
 * loads: the files its coverage shows, and Node's own modules.
 */
const dataCommand = once(async () => {
  const coverage = tempDir('mkt-coverage-');
  const written = join(tempDir('mkt-written-'), 'fees.json');
  const { modules } = await modulesLoaded(['--sandbox', 'fees', 'NYSE', '-f', 'json', '-o', written], { NODE_V8_COVERAGE: coverage });
  expect(JSON.parse(readFileSync(written, 'utf8'))).toMatchObject({ exchange: 'NYSE' });
  return { files: coveredFiles(coverage), modules };
});

/** The service of the runs that read a mirror: a small one, as the size of the mirror is not what they show. */
const service = useSandbox({ records: 100 });

/**
 * One user of `service`, with a sync's mirror and state for the runs after it: the sync runs
 * in this process, as it is what those runs start from, not what they show.
 */
const syncedUser = once(async (): Promise<Record<'MKT_BASE_URL' | 'MKT_API_KEY' | 'MKT_DATA_DIR' | 'MKT_CACHE_DIR' | 'MKT_CONFIG_DIR', string>> => {
  const env = {
    MKT_BASE_URL: service.current.url,
    MKT_API_KEY: service.current.keys.api_key,
    MKT_DATA_DIR: tempDir('mkt-data-'),
    MKT_CACHE_DIR: tempDir('mkt-cache-'),
    MKT_CONFIG_DIR: tempDir('mkt-config-'),
  };
  expect(await runInProcess(['sync', '-q'], { env })).toMatchObject({ code: 0, stderr: '' });
  return env;
});

/**
 * Node's own modules that `mkt args…` loaded (`process.moduleLoadList`), the files it required
 * (`require.cache`), both written as it exits, and its stderr.
 */
async function modulesLoaded(args: readonly string[], env: Record<string, string> = {}): Promise<{ modules: string[]; files: string[]; stderr: string }> {
  const dir = tempDir('mkt-modules-');
  const report = join(dir, 'modules.json');
  const preload = join(dir, 'report.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ modules: process.moduleLoadList, files: Object.keys(require.cache) })));`);
  const run = await runMkt(args, { env: { ...env, NODE_OPTIONS: `--require ${preload}` } });
  expect(run.code).toBe(0);
  return { ...(JSON.parse(readFileSync(report, 'utf8')) as { modules: string[]; files: string[] }), stderr: run.stderr };
}
