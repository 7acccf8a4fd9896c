import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { control } from '../contract/http.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { startRelay } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { answeredFor, killedFirstSync, pagesAsked } from '../helpers/stopped-sync.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 16: a killed sync carries on from its last commit. One sync is killed, and each test
// carries on from a copy of the mirror it left, in the order written: the second withdraws a
// version from the service.
/** Pages the killed sync stages between two commits: a commit is what it carries on from, not how many pages one holds. */
const COMMIT_PAGES = 2;
/**
 * Pages of the sandbox: one more than the relay answers requests, so that the killed walk, which
 * also asks for the newest page before and after them, cannot end, and the resumed one has pages to read.
 */
const PAGES = answeredFor(COMMIT_PAGES) + 1;
const RECORDS = PAGES * 100;
let sandbox: RunningSandbox;
let counted: Awaited<ReturnType<typeof startRelay>>;
let killed: Awaited<ReturnType<typeof killedFirstSync>>;
/** What the killed sync committed: the page to go on from, the records staged, and the first of them's version. */
let committed: { next_page: number; staged: number; first_version_id: string };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, records: RECORDS });
  counted = await startRelay(sandbox.url);
  killed = await killedFirstSync(sandbox, counted, COMMIT_PAGES);
  const duck = await openDuckDB();
  await duck.rows(`ATTACH '${killed.mirror}' AS m (READ_ONLY)`);
  const [walk] = await duck.rows(
    'SELECT next_page, (SELECT count(*) FROM m.mkt_walk_results)::INTEGER AS staged, (SELECT version_id FROM m.mkt_walk_results LIMIT 1) AS first_version_id FROM m.mkt_walk',
  );
  duck.close();
  committed = walk as typeof committed;
}, 60_000);

afterAll(async () => {
  await counted?.close();
  await sandbox?.close();
});

/** The environment of a copy of the killed sync's mirror, its log with it: the file as the kill left it. */
function killedMirrorCopy(): Record<string, string> {
  const mirror = join(tempDir('mkt-mirror-'), 'killed.duckdb');
  copyFileSync(killed.mirror, mirror);
  if (existsSync(`${killed.mirror}.wal`)) copyFileSync(`${killed.mirror}.wal`, `${mirror}.wal`);
  return { ...killed.env, MKT_MIRROR: mirror };
}

/** The records of `results --all` online and from the mirror, as NDJSON. */
async function onlineAndOffline(env: Record<string, string>): Promise<{ online: string; offline: string }> {
  // Online from the sandbox itself: the relay's count is of the syncs, and what it passes on is the sandbox's answer.
  const online = await runInProcess(['results', '--all', '-f', 'ndjson'], { env: { ...env, MKT_BASE_URL: sandbox.url } });
  const offline = await runInProcess(['results', '--offline', '--all', '-f', 'ndjson'], { env });
  return { online: online.stdout, offline: offline.stdout };
}

describe('a killed first sync', () => {
  it('carries on from its last commit, fetching no committed page again', async () => {
    const env = killedMirrorCopy();
    const { next_page: committedPages, staged } = committed;
    expect(committedPages).toBeGreaterThan(0);
    expect(staged).toBe(committedPages * 100);

    const before = counted.requests.length;
    // In-process from here: what is about processes is the kill.
    const resumed = await runInProcess(['sync', '-f', 'json'], { env });
    expect(resumed.code).toBe(0);
    // The pages not committed, and the newest record, which tells the service is as the killed walk found it.
    expect(JSON.parse(resumed.stdout)).toMatchObject({ new_records: RECORDS, total_records: RECORDS, full_walk: true, requests: PAGES + 1 - committedPages });
    // Pages are asked a few at a time: they may arrive in any order.
    const asked = pagesAsked(counted.requests.slice(before)).sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]));
    expect(asked.filter((page) => page.startsWith('asc '))).toEqual(Array.from({ length: PAGES - committedPages }, (_, index) => `asc ${committedPages + index}`));
    expect(asked.filter((page) => !page.startsWith('asc '))).toEqual(['desc 0']);
    const { online, offline } = await onlineAndOffline(env);
    expect(offline).toBe(online);
    expect(offline.split('\n')).toHaveLength(RECORDS + 1);
  }, 60_000);

  it('carries on after a version it had committed is withdrawn, to a mirror that equals the service', async () => {
    const env = killedMirrorCopy();
    // The service withdraws the version of the walk's first committed record: every later record moves back.
    expect((await control(sandbox, 'DELETE', `versions/${committed.first_version_id}`)).status).toBe(200);

    const resumed = await runInProcess(['sync', '-f', 'json'], { env });
    expect(resumed.code).toBe(0);
    const { online, offline } = await onlineAndOffline(env);
    expect(offline).toBe(online);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total_records: online.split('\n').length - 1, full_walk: true });
  }, 90_000);
});
