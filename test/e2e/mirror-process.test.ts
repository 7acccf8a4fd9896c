import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { useRelays } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cleanEnv, runMkt, spawnMkt } from '../helpers/run-mkt.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 16: a killed sync carries on from its last commit; two syncs never both write; DuckDB is optional.
const relay = useRelays();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The page numbers of the requests a relay saw, in the order they came. */
const pagesAsked = (requests: readonly { url: string }[]) =>
  requests.map((request) => new URL(request.url, 'http://x').searchParams).map((params) => `${params.get('order_dir')} ${params.get('page_number')}`);

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Pages of a sync (100 records each) enough for one commit and some pages after it (see committedAndStuck). */
const PAGES = 220;
const RECORDS = PAGES * 100;

/** A first sync of the sandbox's records through a relay, killed (SIGKILL) once it has committed. */
async function killedFirstSync(sandbox: RunningSandbox) {
  const mirror = join(tempDir('mkt-mirror-'), 'killed.duckdb');
  const counted = await relay(sandbox.url);
  const env = { MKT_BASE_URL: counted.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: mirror };
  const killed = spawnMkt(['sync'], { env });
  await committedAndStuck(counted);
  killed.child.kill('SIGKILL');
  expect((await killed.result).signal).toBe('SIGKILL');
  counted.release();
  return { mirror, counted, env };
}

/**
 * Waits until a sync through `counted` has committed and cannot end. A walk commits every 100
 * pages (or every 2 s, when pages come slowly), and a commit runs while the walk reads on, but
 * the next one waits for it: the walk asks for a page a few beyond the 200th only once the first
 * commit has finished. The relay answers none beyond that page, which keeps the walk going.
 */
async function committedAndStuck(counted: Awaited<ReturnType<typeof relay>>): Promise<void> {
  counted.holdAfter(210);
  await until(() => counted.requests.length > 210);
}

describe('a mirror across processes', () => {
  it('carries on a killed first sync from its last commit, fetching no committed page again', async () => {
    const sandbox = await startSandbox({ port: 0, records: RECORDS });
    try {
      const { mirror, counted, env } = await killedFirstSync(sandbox);

      const duck = await openDuckDB();
      await duck.rows(`ATTACH '${mirror}' AS m (READ_ONLY)`);
      const [walk] = await duck.rows('SELECT next_page, (SELECT count(*) FROM m.mkt_walk_results)::INTEGER AS staged FROM m.mkt_walk');
      duck.close();
      const committed = walk?.next_page as number;
      expect(committed).toBeGreaterThan(0);
      expect(walk?.staged).toBe(committed * 100);

      const before = counted.requests.length;
      const resumed = await runMkt(['sync', '-f', 'json'], { env });
      expect(resumed.code).toBe(0);
      // The pages not committed, and the newest record, which tells the service is as the killed walk found it.
      expect(JSON.parse(resumed.stdout)).toMatchObject({ new_records: RECORDS, total_records: RECORDS, full_walk: true, requests: PAGES + 1 - committed });
      // Pages are asked a few at a time: they may arrive in any order.
      const asked = pagesAsked(counted.requests.slice(before)).sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]));
      expect(asked.filter((page) => page.startsWith('asc '))).toEqual(Array.from({ length: PAGES - committed }, (_, index) => `asc ${committed + index}`));
      expect(asked.filter((page) => !page.startsWith('asc '))).toEqual(['desc 0']);
      const online = await runMkt(['results', '--all', '-f', 'ndjson'], { env });
      const offline = await runMkt(['results', '--offline', '--all', '-f', 'ndjson'], { env });
      expect(offline.stdout).toBe(online.stdout);
      expect(offline.stdout.split('\n')).toHaveLength(RECORDS + 1);
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it('carries on a killed first sync after a version it had committed is withdrawn, to a mirror that equals the service', async () => {
    const sandbox = await startSandbox({ port: 0, records: RECORDS });
    try {
      const { mirror, env } = await killedFirstSync(sandbox);
      // The service withdraws the version of the walk's first committed record: every later record moves back.
      const duck = await openDuckDB();
      await duck.rows(`ATTACH '${mirror}' AS m (READ_ONLY)`);
      const [first] = await duck.rows('SELECT version_id FROM m.mkt_walk_results LIMIT 1');
      duck.close();
      const withdrawn = await fetch(`${sandbox.url}/__sandbox/versions/${first?.version_id as string}`, { method: 'DELETE' });
      expect(withdrawn.status).toBe(200);

      const resumed = await runMkt(['sync', '-f', 'json'], { env });
      expect(resumed.code).toBe(0);
      const online = await runMkt(['results', '--all', '-f', 'ndjson'], { env });
      const offline = await runMkt(['results', '--offline', '--all', '-f', 'ndjson'], { env });
      expect(offline.stdout).toBe(online.stdout);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ total_records: online.stdout.split('\n').length - 1, full_walk: true });
    } finally {
      await sandbox.close();
    }
  }, 90_000);

  it('says at Ctrl-C that a sync keeps what it committed, and the next carries on from there', async () => {
    const sandbox = await startSandbox({ port: 0, records: RECORDS });
    try {
      const counted = await relay(sandbox.url);
      const env = { MKT_BASE_URL: counted.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'stopped.duckdb') };
      const stopped = spawnMkt(['sync'], { env });
      await committedAndStuck(counted);
      stopped.child.kill('SIGINT');
      const run = await stopped.result;
      counted.release();
      expect(run.code).toBe(130);
      expect(run.stderr).toBe('mkt: interrupted by SIGINT\nThe mirror keeps what this sync committed; the next `mkt sync` carries on.\n');
      const resumed = await runMkt(['sync', '-f', 'json'], { env });
      expect(resumed.code).toBe(0);
      const summary = JSON.parse(resumed.stdout) as { new_records: number; requests: number };
      expect(summary.new_records).toBe(RECORDS);
      expect(summary.requests).toBeLessThan(PAGES);
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
    const sandbox = await startSandbox({ port: 0, records: 100 });
    let long: ReturnType<typeof spawnMkt> | undefined;
    try {
      const env = { MKT_BASE_URL: sandbox.url, MKT_API_KEY: sandbox.keys.api_key, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'long.duckdb') };
      expect((await runInProcess(['sync'], { env })).code).toBe(0);
      // Minutes of work for DuckDB.
      long = spawnMkt(['sql', 'SELECT count(*) FROM range(100000000000) t(i) WHERE i % 7 = 3'], { env });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      long.child.kill('SIGINT');
      const run = await long.result;
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 130, stdout: '', stderr: 'mkt: interrupted by SIGINT\n' });
    } finally {
      long?.child.kill('SIGKILL');
      await sandbox.close();
    }
  }, 60_000);

  it('lets one sync write at a time: a second says the file is in use, a reader that a sync is writing (exit 1)', async () => {
    const sandbox = await startSandbox({ port: 0, records: 3000 });
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
      expect((await runInProcess(['sql', 'SELECT count(*) AS n FROM results', '-f', 'csv'], { env })).stdout).toBe('n\r\n3000\r\n');
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  /** mkt installed in a directory of its own, without @duckdb's packages. */
  function installWithoutDuckDB() {
    const install = tempDir('mkt-no-duckdb-');
    for (const entry of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, entry), join(install, entry), { recursive: true });
    mkdirSync(join(install, 'node_modules'));
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name !== '@duckdb' && name !== '.bin') symlinkSync(join(ROOT, 'node_modules', name), join(install, 'node_modules', name));
    }
    return (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [join(install, 'bin', 'mkt.js'), ...args], { env: cleanEnv({}) });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
  }

  const NOT_INSTALLED =
    `mkt: the mirror needs DuckDB (@duckdb/node-api), which is not installed for ${process.platform}-${process.arch}\n`
    + 'Reinstall mkt with its optional dependencies (npm install --include=optional); every other command works without it.\n';

  it('works without DuckDB installed, but for the mirror commands, which say so (exit 1)', async () => {
    const run = installWithoutDuckDB();
    const mirror = join(tempDir('mkt-mirror-'), 'm.duckdb');
    const sync = await run(['--sandbox', 'sync', '--mirror', mirror]);
    expect(sync).toMatchObject({ code: 1, stderr: NOT_INSTALLED });
    expect(existsSync(mirror)).toBe(false);
    expect((await run(['--sandbox', 'sql', 'SELECT 1'])).code).toBe(1);
    writeFileSync(mirror, '');
    expect(await run(['--sandbox', 'results', '--offline', '--mirror', mirror])).toMatchObject({ code: 1, stderr: NOT_INSTALLED });
    const fees = await run(['--sandbox', 'fees', 'NYSE', '-f', 'json']);
    expect(fees.code).toBe(0);
    expect(JSON.parse(fees.stdout)).toMatchObject({ exchange: 'NYSE' });
  }, 30_000);
});
