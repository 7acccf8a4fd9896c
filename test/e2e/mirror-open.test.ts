import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { killWhenHung, MKT_RUNS, spawnMkt } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 35: what a mirror command meets where it opens the mirror. Every command here is refused
// before it reads a record: the mirror's records are not the point, and a few make it.
const sandbox = useSandbox({ records: 20 });
const mirror = join(tempDir('mkt-mirror-'), 'opened.duckdb');
const env = (extra: Record<string, string> = {}) => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror, ...extra });

beforeAll(async () => {
  expect((await runInProcess(['sync'], { env: env() })).code).toBe(0);
});

/**
 * mkt's bundle run once for each argument list, in turn, in one Node process (mkt-runs.cjs),
 * killed if it hangs (killWhenHung): a hang under /proc or on a named pipe blocks the whole
 * process, and so any run of it. The process's stdout is every run's.
 */
async function runsOrKill(argsLists: readonly (readonly string[])[], extraEnv: Record<string, string> = {}) {
  const running = spawnMkt([JSON.stringify(argsLists)], { env: env(extraEnv), script: MKT_RUNS });
  const hung = killWhenHung(running.child);
  const { code, signal, stdout, stderr } = await running.result;
  const killedAsHung = hung();
  const runs = killedAsHung || code !== 0 ? stderr : (JSON.parse(stderr) as { code: number; stderr: string }[]);
  return { code, signal, stdout, killedAsHung, runs };
}

/** A DuckDB file made by someone else, with these statements. */
async function foreignDatabase(name: string, sql: string): Promise<string> {
  const path = join(tempDir('mkt-foreign-'), name);
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run(sql);
  connection.closeSync();
  instance.closeSync();
  return path;
}

describe('opening a mirror', () => {
  it('refuses a DuckDB database that is not a mirror, one with a table named mkt_mirror too, and leaves its bytes and time alone', async () => {
    const foreign = [
      await foreignDatabase('sales.duckdb', 'CREATE TABLE sales (amount INTEGER); INSERT INTO sales VALUES (1)'),
      await foreignDatabase('named-alike.duckdb', 'CREATE TABLE mkt_mirror (x INTEGER); INSERT INTO mkt_mirror VALUES (1)'),
      await foreignDatabase(
        'schema-alike.duckdb',
        'CREATE TABLE mkt_mirror (layout INTEGER, service VARCHAR, filters VARCHAR, created_at TIMESTAMPTZ); CREATE SCHEMA s; CREATE TABLE s.t (a INTEGER)',
      ),
    ];
    // The bytes by their digest: a deep equality of two Buffers goes byte by byte, for the whole file.
    const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    for (const path of foreign) {
      const before = { bytes: digest(path), mtimeMs: statSync(path).mtimeMs };
      const run = await runInProcess(['sync', '--mirror', path], { env: env() });
      expect({ path, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        path,
        code: 1,
        stdout: '',
        stderr: `mkt: ${path} is a DuckDB database, but not a mirror of mkt\nName a mirror with --mirror, or a new file for \`mkt sync\` to make one.\n`,
      });
      expect({ bytes: digest(path), mtimeMs: statSync(path).mtimeMs, log: existsSync(`${path}.wal`) }).toEqual({ ...before, log: false });
    }
  });


  it('fails at once, exit 1, for a mirror or a data directory under /proc, where making the directory spun for ever', async () => {
    // Both in one process: --mirror names the first run's mirror over MKT_MIRROR, and the second
    // has none named, so it goes in the data directory.
    const ended = await runsOrKill([['sync', '--mirror', '/proc/mkt/m.duckdb'], ['sync']], { MKT_MIRROR: '', MKT_DATA_DIR: '/proc/self/mkt' });
    expect(ended).toEqual({
      code: 0,
      signal: null,
      stdout: '',
      killedAsHung: false,
      runs: [
        {
          code: 1,
          stderr: 'mkt: cannot make the directory of /proc/mkt/m.duckdb: no such file or directory (ENOENT)\nName a mirror you can write with --mirror or MKT_MIRROR.\n',
        },
        {
          code: 1,
          stderr: 'mkt: cannot make the directory of /proc/self/mkt/default.duckdb: no such file or directory (ENOENT)\nName a mirror you can write with --mirror or MKT_MIRROR.\n',
        },
      ],
    });
  }, 60_000);

  it('refuses a named pipe where the mirror keeps its log, in every mirror command, exit 2, where DuckDB waited on it for ever', async () => {
    const pipeBeside = join(tempDir('mkt-mirror-'), 'piped.duckdb');
    execFileSync('cp', [mirror, pipeBeside]);
    execFileSync('mkfifo', [`${pipeBeside}.wal`]);
    const commands = [['sync'], ['sql', 'SELECT 1'], ['results', '--offline'], ['diff', 'NYSE', 'Equity']];
    const ended = await runsOrKill(commands.map((args) => [...args, '--mirror', pipeBeside]));
    expect(ended).toEqual({
      code: 0,
      signal: null,
      stdout: '',
      killedAsHung: false,
      runs: commands.map(() => ({
        code: 2,
        stderr: `mkt: ${pipeBeside}.wal is a named pipe, not the log of a mirror\nRemove ${pipeBeside}.wal, or name another mirror with --mirror.\n`,
      })),
    });
  }, 120_000);
});
