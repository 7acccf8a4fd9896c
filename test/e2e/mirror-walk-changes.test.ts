import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalMicros, formatOffsetMicros } from '../../src/sandbox/time.js';
import { useDuckDB } from '../helpers/duckdb.js';
import { copyMirror } from '../helpers/mirror-copy.js';
import { emptyResultsPage, sendJson, startRecordingServer } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 35: a full walk whose pages shift under it (a record withdrawn behind it, one added) never
// leaves a mirror that differs from the service with exit 0; an incremental sync commits as it goes.

/** One reader for the file: each look attaches the mirror and detaches it, which leaves it to the next sync. */
const duck = useDuckDB();
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const START = Date.UTC(2024, 0, 1) * 1000;
/** Pages a sync stages between two commits (Deps.syncCommitPages): what a commit does is seen in a few hundred records. */
const COMMIT_PAGES = 3;

/** Record `n`: its id and created_on both order it, as the n-th record created. */
function record(n: number) {
  return {
    id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    exchange_name: 'NYSE',
    fee_type: 'Equity',
    version_id: `00000000-0000-4000-9000-${Math.floor(n / 100).toString(16).padStart(12, '0')}`,
    scraped_time: formatOffsetMicros(START + n * 1_000_000),
    created_on: formatLocalMicros(START + n * 1_000_000),
  };
}

interface Asked {
  order: string | null;
  page: number;
  size: number;
}

/**
 * A results service over `count` records that a test changes while mkt reads them, paged as the
 * service document says, by created_on. `before` runs before each answer: it may change the
 * records, or answer itself (true) for a failure. Closed after the test, or with `closedBy`.
 */
async function liveService(count: number, closedBy: { close(): Promise<void> }[] = servers) {
  const records = Array.from({ length: count }, (_, n) => record(n));
  const asked: Asked[] = [];
  const service = {
    records,
    asked,
    before: (_asked: Asked, _respond: (status: number, body: unknown) => void): boolean => false,
    url: '',
    ids: () => records.map((r) => r.id).sort(),
  };
  const server = await startRecordingServer((request, response) => {
    const params = new URL(request.url, 'http://x').searchParams;
    const ask = { order: params.get('order_dir'), page: Number(params.get('page_number') ?? 0), size: Number(params.get('page_size') ?? 20) };
    asked.push(ask);
    if (service.before(ask, (status, body) => sendJson(response, status, body))) return;
    // Newest first, the page's records alone are reversed: a service of many thousand records is asked for a hundred pages.
    const from = ask.page * ask.size;
    const data = ask.order === 'asc'
      ? records.slice(from, from + ask.size)
      : records.slice(Math.max(0, records.length - from - ask.size), Math.max(0, records.length - from)).reverse();
    sendJson(response, 200, {
      ...emptyResultsPage(ask.size, ask.page),
      data,
      total_records: records.length,
      total_pages: Math.ceil(records.length / ask.size),
    });
  });
  closedBy.push(server);
  service.url = server.url;
  return service;
}

function mkt(url: string, mirror = join(tempDir('mkt-mirror-'), 'm.duckdb')) {
  const env = { MKT_BASE_URL: url, MKT_API_KEY: 'live-key-0123456789', MKT_MIRROR: mirror };
  return {
    mirror: env.MKT_MIRROR,
    env,
    run: (args: readonly string[]) => runInProcess(args, { env, syncCommitPages: COMMIT_PAGES }),
    /** The mirror's ids, sorted, read as any other tool would. */
    async ids(table = 'results'): Promise<string[]> {
      await duck.current.rows(`ATTACH '${env.MKT_MIRROR}' AS m (READ_ONLY)`);
      try {
        return (await duck.current.rows(`SELECT id FROM m.${table} ORDER BY id`)).map((row) => row.id as string);
      } finally {
        await duck.current.rows('DETACH m');
      }
    },
  };
}

const FAILED = { detail: 'failed on purpose' };

// One service of 300 records and its first sync: tests that start from a mirror of the service
// change the service as they please, and sync a copy of that mirror.
const FIRST_RECORDS = 300;
const served: { close(): Promise<void> }[] = [];
let first: { service: Awaited<ReturnType<typeof liveService>>; mirror: string };
beforeAll(async () => {
  const service = await liveService(FIRST_RECORDS, served);
  const { mirror, run } = mkt(service.url);
  expect((await run(['sync'])).code).toBe(0);
  first = { service, mirror };
});
afterAll(() => Promise.all(served.map((server) => server.close())));

/** The service as the first sync left it, and a client of a copy of that sync's mirror. */
function fromFirstSync() {
  const { service, mirror } = first;
  service.records.splice(0, Infinity, ...Array.from({ length: FIRST_RECORDS }, (_, n) => record(n)));
  service.asked.length = 0;
  service.before = () => false;
  return { service, client: mkt(service.url, copyMirror(mirror)) };
}

/** A sync that exits 0 with this summary, and leaves the mirror holding exactly the service's ids, nothing staged. */
async function expectSynced(client: ReturnType<typeof mkt>, service: Awaited<ReturnType<typeof liveService>>, args: string[], summary: object) {
  const run = await client.run(['sync', '-f', 'json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject(summary);
  expect(await client.ids()).toEqual(service.ids());
  expect(await client.ids('mkt_walk_results')).toEqual([]);
}

describe('a full walk the service changes under', () => {
  it('carries on a first sync stopped after a commit, finds a record withdrawn from its committed pages, and walks again', async () => {
    const service = await liveService(600);
    const client = mkt(service.url);
    // Stopped at page 5, after the commit of its first 3 pages: what it read is kept.
    service.before = (ask, respond) => ask.order === 'asc' && ask.page === 5 && (respond(400, FAILED), true);
    expect((await client.run(['sync'])).code).not.toBe(0);
    expect(await client.ids('mkt_walk_results')).toHaveLength(500);

    // One of the first 300 records is withdrawn: every later one moves back a place.
    service.records.splice(5, 1);
    service.before = () => false;
    await expectSynced(client, service, [], { new_records: 599, total_records: 599, full_walk: true });
  }, 60_000);

  it('walks again when a full refresh meets a withdrawal behind it and an addition that keep the count', async () => {
    // Pages enough that the change comes mid-walk; no commit is the point here.
    const { service, client } = fromFirstSync();
    let changed = false;
    service.before = (ask) => {
      if (ask.order === 'asc' && ask.page === 2 && !changed) {
        changed = true;
        service.records.splice(5, 1);
        service.records.push(record(FIRST_RECORDS));
      }
      return false;
    };
    await expectSynced(client, service, ['--full-refresh'], { new_records: 1, removed_records: 1, total_records: FIRST_RECORDS, full_walk: true });
    // Page 0 asked by each of the refresh's two walks.
    expect(service.asked.filter((ask) => ask.order === 'asc' && ask.page === 0)).toHaveLength(2);
  }, 60_000);

  it('says so, exit 1, and keeps the mirror as it was, when the service changes under every walk', async () => {
    const { service, client } = fromFirstSync();
    const before = service.ids();
    let added = FIRST_RECORDS;
    service.before = (ask) => {
      if (ask.order === 'asc' && ask.page === 2) {
        service.records.splice(5, 1);
        service.records.push(record(added++));
      }
      return false;
    };
    const refreshed = await client.run(['sync', '--full-refresh']);
    expect({ code: refreshed.code, stdout: refreshed.stdout, stderr: refreshed.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mkt: the results changed during the sync, under each of its 2 walks\nRun `mkt sync` again: the mirror is as it was before this sync.\n',
    });
    expect(await client.ids()).toEqual(before);
    expect(await client.ids('mkt_walk_results')).toEqual([]);
  }, 60_000);

  it('fails, keeping the mirror as it was, when unchanging pages hold fewer distinct records than the count', async () => {
    const { service, client } = fromFirstSync();
    const before = service.ids();
    service.records[150] = record(5);
    const refreshed = await client.run(['sync', '--full-refresh']);
    expect({ code: refreshed.code, stderr: refreshed.stderr }).toEqual({
      code: 1,
      stderr: "mkt: the service's pages held 299 distinct records, but it reports 300\nRun `mkt sync` again: the mirror is as it was before this sync.\n",
    });
    expect(await client.ids()).toEqual(before);
  });

  it('takes records added during the walk in one walk: nothing before them moved', async () => {
    const service = await liveService(500);
    const client = mkt(service.url);
    service.before = (ask) => {
      if (ask.order === 'asc' && ask.page === 3 && service.records.length === 500) {
        for (let n = 500; n < 650; n++) service.records.push(record(n));
      }
      return false;
    };
    // The newest record before and after, 7 pages, and the start's newest found in its place.
    await expectSynced(client, service, [], { new_records: 650, total_records: 650, requests: 10 });
  }, 60_000);
});

describe('a sync against a service that repeats itself', () => {
  it('stops a first sync whose pages repeat one record under a count of 2⁵³ − 1, with nothing in the mirror', async () => {
    const service = await liveService(1);
    const client = mkt(service.url);
    const total = 2 ** 53 - 1;
    service.before = (ask, respond) => {
      respond(200, { ...emptyResultsPage(ask.size, ask.page), data: [record(0)], total_records: total, total_pages: Math.ceil(total / ask.size) });
      return true;
    };
    const run = await client.run(['sync']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: 'mkt: the service keeps sending the same records: 10 pages in a row held none it had not sent before (page 10)\n',
    });
    expect(await client.ids()).toEqual([]);
  });
});

describe('an incremental sync', () => {
  it('commits what it reads as it goes, and adds it to the mirror only when the sync is done', async () => {
    const { service, client } = fromFirstSync();
    for (let n = FIRST_RECORDS; n < 800; n++) service.records.push(record(n));
    service.before = (ask, respond) => ask.order === 'desc' && ask.page === 4 && (respond(400, FAILED), true);
    expect((await client.run(['sync'])).code).not.toBe(0);
    // At least its first 3 pages were committed to the staging table, and the mirror is as it was.
    expect((await client.ids('mkt_walk_results')).length).toBeGreaterThanOrEqual(300);
    expect(await client.ids()).toHaveLength(FIRST_RECORDS);
    service.before = () => false;
    await expectSynced(client, service, [], { new_records: 500, total_records: 800, full_walk: false });
  }, 60_000);

  it('commits every 100 pages when no test asks for fewer', async () => {
    const { service, client } = fromFirstSync();
    for (let n = FIRST_RECORDS; n < 15_500; n++) service.records.push(record(n));
    service.before = (ask, respond) => ask.order === 'desc' && ask.page === 150 && (respond(400, FAILED), true);
    // Stopped at page 150: the commit of its first 100 pages is all the staging holds (50 pages to a
    // commit would have staged 150). A clock that stands still: no commit is due for the time since the last.
    const run = await runInProcess(['sync'], { env: client.env, now: () => START / 1000 });
    expect(run.code).not.toBe(0);
    expect(await client.ids('mkt_walk_results')).toHaveLength(10_000);
  }, 60_000);

  it('stops a service that never stops sending newer records', async () => {
    const { service, client } = fromFirstSync();
    let next = FIRST_RECORDS;
    service.before = (ask) => {
      // Before every page it is asked for, two pages of newer records arrive: each page holds new ones.
      if (ask.order === 'desc') for (const end = next + 200; next < end; next++) service.records.push(record(next));
      return false;
    };
    // Every 100 pages a commit, as without a test's cadence: what the walk stages is not the point.
    const run = await runInProcess(['sync'], { env: client.env });
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: 'mkt: the service keeps sending the same records: page 105 is far past the pages it reported\n',
    });
    expect(await client.ids()).toHaveLength(FIRST_RECORDS);
  }, 60_000);
});
