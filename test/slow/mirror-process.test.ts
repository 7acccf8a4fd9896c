import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { useRelays } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runMkt, spawnMkt } from '../helpers/run-mkt.js';
import { answeredFor, committedAndStuck, until } from '../helpers/stopped-sync.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 16: Ctrl-C keeps what a sync committed, ends one with nothing committed and a long query;
// two syncs never both write; DuckDB is optional. A killed sync is test/e2e/mirror-killed-sync.test.ts's.
const relay = useRelays();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Minutes of work for DuckDB, until Ctrl-C ends it. */
const LONG_QUERY = 'SELECT count(*) FROM range(100000000000) t(i) WHERE i % 7 = 3';

/** The environment of the long queries' tests: one mirror, synced once, that they only read. */
let readers: Promise<{ env: Record<string, string>; close: () => Promise<void> }> | undefined;
afterAll(async () => (await readers)?.close());
async function readersEnv(): Promise<Record<string, string> & { MKT_MIRROR: string }> {
  readers ??= (async () => {
    const sandbox = await startSandbox({ port: 0, records: 100 });
    const env = { MKT_BASE_URL: sandbox.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'long.duckdb') };
    expect((await runInProcess(['sync'], { env })).code).toBe(0);
    return { env, close: () => sandbox.close() };
  })();
  return (await readers).env as Record<string, string> & { MKT_MIRROR: string };
}

/**
 * The stopped sync commits after every page, and its relay answers requests up to a few pages past
 * its second commit (committedAndStuck): a walk asks for those only once its first commit has
 * finished. The service has one page more, which the stopped walk cannot reach and the next sync
 * reads.
 */
const STOP_COMMIT_PAGES = 1;
const STOP_ANSWERED = answeredFor(STOP_COMMIT_PAGES);
const STOP_PAGES = STOP_ANSWERED + 1;

/** CPU time a process has spent, in clock ticks (/proc/PID/stat: utime and stime). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU a process spends after it opened the mirror, in clock ticks, once its query has begun. */
const QUERY_STARTED_TICKS = 3;

/** cpuTicks, or none once the process has gone. */
function spentTicks(pid: number): number {
  try {
    return cpuTicks(pid);
  } catch {
    return 0;
  }
}

/** Whether process `pid` holds `mirror` open. */
function holdsOpen(pid: number, mirror: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === mirror);
  } catch {
    return false; // the process is gone, or a descriptor closed while it was read
  }
}

/**
 * Waits until process `pid` runs its query: it holds `mirror` open, and has since spent more CPU
 * than anything after the opening but the query takes. A fixed wait burned the query's CPU for
 * longer on an idle machine, and might come before the query on a loaded one.
 */
async function untilQueryRuns(pid: number, mirror: string): Promise<void> {
  await until(() => holdsOpen(pid, mirror));
  const opened = cpuTicks(pid);
  await until(() => cpuTicks(pid) - opened >= 20);
}

describe('a mirror across processes', () => {
  it('says at Ctrl-C that a sync keeps what it committed, and the next carries on from there', async () => {
    const sandbox = await startSandbox({ port: 0, records: STOP_PAGES * 100 });
    try {
      const counted = await relay(sandbox.url);
      const env = { MKT_BASE_URL: counted.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'stopped.duckdb') };
      const stopped = spawnMkt(['sync'], { env, syncCommitPages: STOP_COMMIT_PAGES });
      await committedAndStuck(counted, STOP_ANSWERED);
      stopped.child.kill('SIGINT');
      const run = await stopped.result;
      counted.release();
      expect(run.code).toBe(130);
      expect(run.stderr).toBe('mkt: interrupted by SIGINT\nThe mirror keeps what this sync committed; the next `mkt sync` carries on.\n');
      const resumed = await runInProcess(['sync', '-f', 'json'], { env });
      expect(resumed.code).toBe(0);
      const summary = JSON.parse(resumed.stdout) as { new_records: number; requests: number };
      expect(summary.new_records).toBe(STOP_PAGES * 100);
      // A walk from the start would ask for every page again, and more.
      expect(summary.requests).toBeLessThan(STOP_PAGES);
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it('says at Ctrl-C before a first sync has committed anything that it left no mirror', async () => {
    // Slow answers: Ctrl-C comes while the walk's first page is asked for, before any commit.
    const sandbox = await startSandbox({ port: 0, records: 300, latencyMs: 3000 });
    try {
      const counted = await relay(sandbox.url);
      const mirror = join(tempDir('mkt-mirror-'), 'never.duckdb');
      const stopped = spawnMkt(['sync'], { env: { MKT_BASE_URL: counted.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: mirror } });
      await until(() => counted.requests.length >= 2); // the newest page has come, and the mirror is open
      stopped.child.kill('SIGINT');
      const run = await stopped.result;
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 130, stderr: `mkt: interrupted by SIGINT\nNothing was committed, and ${mirror} was removed.\n` });
      expect(existsSync(mirror)).toBe(false);
    } finally {
      await sandbox.close();
    }
  }, 30_000);

  it('ends a long mkt sql at Ctrl-C, where the process waited for the query to end', async () => {
    const env = await readersEnv();
    // Minutes of work for DuckDB.
    const long = spawnMkt(['sql', LONG_QUERY], { env });
    // Also when the test times out, which leaves its await pending: a query not ended runs for minutes.
    onTestFinished(() => {
      long.child.kill('SIGKILL');
    });
    await untilQueryRuns(long.child.pid!, env.MKT_MIRROR);
    long.child.kill('SIGINT');
    const run = await long.result;
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 130, stdout: '', stderr: 'mkt: interrupted by SIGINT\n' });
  }, 60_000);

  it('is interrupted by Ctrl-C at any moment of opening the mirror and starting the query, never "not a mirror"', async () => {
    const env = await readersEnv();
    // Spread over the start: before mkt's handler Node itself ends on the signal; after it, mkt says so.
    // A moment that would come once the query runs comes as it starts instead: a query running
    // is the test's above, and until then it would only burn CPU.
    const runs = await Promise.all([100, 300, 500, 700, 900].map(async (delay) => {
      const running = spawnMkt(['sql', LONG_QUERY], { env });
      const pid = running.child.pid!;
      const signalAt = Date.now() + delay;
      let ended = false;
      void running.result.then(() => (ended = true));
      let opened: number | undefined;
      await until(() => {
        if (ended || Date.now() >= signalAt) return true;
        if (opened === undefined && holdsOpen(pid, env.MKT_MIRROR)) opened = spentTicks(pid);
        return opened !== undefined && spentTicks(pid) - opened >= QUERY_STARTED_TICKS;
      });
      running.child.kill('SIGINT');
      const run = await running.result;
      running.child.kill('SIGKILL');
      return run;
    }));
    for (const run of runs) {
      expect([run.code === 130 ? 'mkt' : run.signal, run.stdout, run.stderr]).toEqual(run.code === 130 ? ['mkt', '', 'mkt: interrupted by SIGINT\n'] : ['SIGINT', '', '']);
    }
  }, 60_000);

  it('lets one sync write at a time: a second says the file is in use, a reader that a sync is writing (exit 1)', async () => {
    const sandbox = await startSandbox({ port: 0, records: 300 });
    try {
      const mirror = join(tempDir('mkt-mirror-'), 'busy.duckdb');
      const counted = await relay(sandbox.url);
      const env = { MKT_BASE_URL: counted.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: mirror };
      // The sync goes on until the relay answers its third request.
      counted.holdAfter(2);
      const running = spawnMkt(['sync'], { env });
      await until(() => counted.requests.length > 2);
      const second = await runInProcess(['sync'], { env });
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/^mkt: another process is using \S+busy\.duckdb \(pid \d+\)\nRun the sync again when it has finished\.\n$/);
      const reader = await runInProcess(['sql', 'SELECT 1'], { env });
      expect(reader.code).toBe(1);
      expect(reader.stderr).toMatch(/^mkt: a sync is writing \S+busy\.duckdb \(pid \d+\)\nRun the command again when it has finished\.\n$/);
      counted.release();
      expect((await running.result).code).toBe(0);
      expect((await runInProcess(['sql', 'SELECT count(*) AS n FROM results', '-f', 'csv'], { env })).stdout).toBe('n\r\n300\r\n');
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  /**
   * mkt installed in a directory of its own, without @duckdb's packages, run with `env`: `run` starts
   * its bin/mkt.js, `runs` several argument lists in turn in one process of its bundle
   * (test/helpers/mkt-runs.cjs, copied beside it), giving each one's exit code and stderr.
   */
  function installWithoutDuckDB(env: Record<string, string | undefined>) {
    const install = tempDir('mkt-no-duckdb-');
    for (const entry of ['bin', 'dist', 'package.json', 'test/helpers/mkt-runs.cjs']) cpSync(join(ROOT, entry), join(install, entry), { recursive: true });
    mkdirSync(join(install, 'node_modules'));
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name !== '@duckdb' && name !== '.bin') symlinkSync(join(ROOT, 'node_modules', name), join(install, 'node_modules', name));
    }
    const start = (script: string, args: string[]) => runMkt(args, { env, script: join(install, script) });
    return {
      run: (args: string[]) => start('bin/mkt.js', args),
      runs: async (argLists: string[][]) => JSON.parse((await start('test/helpers/mkt-runs.cjs', [JSON.stringify(argLists)])).stderr) as { code: number; stderr: string }[],
    };
  }

  const NOT_INSTALLED =
    `mkt: the mirror needs DuckDB (@duckdb/node-api), which is not installed for ${process.platform}-${process.arch}\n`
    + 'Reinstall mkt with its optional dependencies (npm install --include=optional); every other command works without it.\n';

  it('works without DuckDB installed, but for the mirror commands, which say so (exit 1)', async () => {
    // The file's sandbox, as a user's mkt reaches a service, rather than --sandbox's of 3,000 records in each process.
    const { MKT_BASE_URL, MKT_API_KEY } = await readersEnv();
    const { run, runs } = installWithoutDuckDB({ MKT_BASE_URL, MKT_API_KEY });
    const mirror = join(tempDir('mkt-mirror-'), 'm.duckdb');
    const present = join(tempDir('mkt-mirror-'), 'present.duckdb');
    writeFileSync(present, '');
    // The mirror commands in one process, each a run of the bundle as bin/mkt.js's: every run
    // requires DuckDB afresh, as a process of its own does.
    const [sync, sql, offline] = await runs([['sync', '--mirror', mirror], ['sql', 'SELECT 1'], ['results', '--offline', '--mirror', present]]);
    expect(sync).toMatchObject({ code: 1, stderr: NOT_INSTALLED });
    expect(existsSync(mirror)).toBe(false);
    expect(sql!.code).toBe(1);
    expect(offline).toMatchObject({ code: 1, stderr: NOT_INSTALLED });
    const fees = await run(['fees', 'NYSE', '-f', 'json']);
    expect(fees.code).toBe(0);
    expect(JSON.parse(fees.stdout)).toMatchObject({ exchange: 'NYSE' });
  }, 30_000);
});
