import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { type MktRun, spawnMkt } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 35: what a mirror command meets where it opens the mirror.
const sandbox = useSandbox({ records: 300 });
const mirror = join(tempDir('mkt-mirror-'), 'opened.duckdb');
const env = (extra: Record<string, string> = {}) => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror, ...extra });

beforeAll(async () => {
  expect((await runInProcess(['sync'], { env: env() })).code).toBe(0);
});

/** Long enough for any run on a loaded machine: a run still going then has hung. */
const HUNG_AFTER_MS = 20_000;

/** `node bin/mkt.js args…`, killed if it has not ended by HUNG_AFTER_MS: a hang under /proc or on a named pipe blocks the whole process. */
async function runOrKill(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<MktRun & { killedAsHung: boolean }> {
  const running = spawnMkt(args, { env: env(extraEnv) });
  let killedAsHung = false;
  const timer = setTimeout(() => {
    killedAsHung = true;
    running.child.kill('SIGKILL');
  }, HUNG_AFTER_MS);
  const run = await running.result;
  clearTimeout(timer);
  return { ...run, killedAsHung };
}

describe('opening a mirror', () => {
  it('fails at once, exit 1, for a mirror or a data directory under /proc, where making the directory spun for ever', async () => {
    const runs = [
      await runOrKill(['sync', '--mirror', '/proc/mkt/m.duckdb']),
      await runOrKill(['sync'], { MKT_MIRROR: '', MKT_DATA_DIR: '/proc/self/mkt' }),
    ];
    expect(runs).toEqual([
      {
        code: 1,
        signal: null,
        stdout: '',
        stderr: 'mkt: cannot make the directory of /proc/mkt/m.duckdb: ENOENT\nName a mirror you can write with --mirror or MKT_MIRROR.\n',
        killedAsHung: false,
      },
      {
        code: 1,
        signal: null,
        stdout: '',
        stderr: 'mkt: cannot make the directory of /proc/self/mkt/default.duckdb: ENOENT\nName a mirror you can write with --mirror or MKT_MIRROR.\n',
        killedAsHung: false,
      },
    ]);
  }, 60_000);

  it('refuses a named pipe where the mirror keeps its log, in every mirror command, exit 2, where DuckDB waited on it for ever', async () => {
    const pipeBeside = join(tempDir('mkt-mirror-'), 'piped.duckdb');
    execFileSync('cp', [mirror, pipeBeside]);
    execFileSync('mkfifo', [`${pipeBeside}.wal`]);
    const endings = [];
    for (const args of [['sync'], ['sql', 'SELECT 1'], ['results', '--offline'], ['diff', 'NYSE', 'Equity']]) {
      const run = await runOrKill([...args, '--mirror', pipeBeside]);
      endings.push({ args, ...run });
    }
    expect(endings).toEqual(
      [['sync'], ['sql', 'SELECT 1'], ['results', '--offline'], ['diff', 'NYSE', 'Equity']].map((args) => ({
        args,
        code: 2,
        signal: null,
        stdout: '',
        stderr: `mkt: ${pipeBeside}.wal is a named pipe, not the log of a mirror\nRemove ${pipeBeside}.wal, or name another mirror with --mirror.\n`,
        killedAsHung: false,
      })),
    );
  }, 120_000);
});
