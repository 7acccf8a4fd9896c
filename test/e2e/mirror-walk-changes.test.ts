import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatLocalMicros, formatOffsetMicros } from '../../src/sandbox/time.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { copyMirror } from '../helpers/mirror-copy.js';
import { emptyResultsPage, sendJson, startRecordingServer } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 35: a full walk whose pages shift under it (a record withdrawn behind it, one added) never
// leaves a mirror that differs from the service with exit 0; an incremental sync commits as it goes.

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const START = Date.UTC(2024, 0, 1) * 1000;
/** Pages a sync stages between two commits (Deps.syncCommitPages): what a commit does is seen in a few thousand records. */
const COMMIT_PAGES = 10;

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
    const ordered = ask.order === 'asc' ? records : [...records].reverse();
    sendJson(response, 200, {
      ...emptyResultsPage(ask.size, ask.page),
      data: ordered.slice(ask.page * ask.size, (ask.page + 1) * ask.size),
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
      const duck = await openDuckDB();
      try {
        await duck.rows(`ATTACH '${env.MKT_MIRROR}' AS m (READ_ONLY)`);
        return (await duck.rows(`SELECT id FROM m.${table} ORDER BY id`)).map((row) => row.id as string);
      } finally {
        duck.close();
      }
    },
  };
}

const FAILED = { detail: 'failed on purpose' };

/** A live service of `count` records, and a mirror of it made by a first sync. */
async function mirrored(count: number) {
  const service = await liveService(count);
  const client = mkt(service.url);
  expect((await client.run(['sync'])).code).toBe(0);
  return { service, client };
}

/** A sync that exits 0 with this summary, and leaves the mirror holding exactly the service's ids, nothing staged. */
async function expectSynced(client: ReturnType<typeof mkt>, service: Awaited<ReturnType<typeof liveService>>, args: string[], summary: object) {
  const run = await client.run(['sync', '-f', 'json', ...args]);
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject(summary);
  expect(await client.ids()).toEqual(service.ids());
  expect(await client.ids('mkt_walk_results')).toEqual([]);
}

describe('a full walk the service changes under', () => {
  it('carries on a first sync stopped after a commit, finds a record withdrawn from its committed pages, and walks again', async () => {
    const service = await liveService(2_000);
    const client = mkt(service.url);
    // Stopped at page 15, after the commit of its first 10 pages: what it read is kept.
    service.before = (ask, respond) => ask.order === 'asc' && ask.page === 15 && (respond(400, FAILED), true);
    expect((await client.run(['sync'])).code).not.toBe(0);
    expect(await client.ids('mkt_walk_results')).toHaveLength(1_500);

    // One of the first 1,000 records is withdrawn: every later one moves back a place.
    service.records.splice(5, 1);
    service.before = () => false;
    await expectSynced(client, service, [], { new_records: 1_999, total_records: 1_999, full_walk: true });
  }, 60_000);

  it('walks again when a full refresh meets a withdrawal behind it and an addition that keep the count', async () => {
    // Pages enough that the change comes mid-walk; no commit is the point here.
    const { service, client } = await mirrored(1_500);
    let changed = false;
    service.before = (ask) => {
      if (ask.order === 'asc' && ask.page === 8 && !changed) {
        changed = true;
        service.records.splice(5, 1);
        service.records.push(record(1_500));
      }
      return false;
    };
    await expectSynced(client, service, ['--full-refresh'], { new_records: 1, removed_records: 1, total_records: 1_500, full_walk: true });
    // Page 0 asked by the first sync, and by each of the refresh's two walks.
    expect(service.asked.filter((ask) => ask.order === 'asc' && ask.page === 0)).toHaveLength(3);
  }, 60_000);

  it('says so, exit 1, and keeps the mirror as it was, when the service changes under every walk', async () => {
    const { service, client } = await mirrored(2_000);
    const before = service.ids();
    let added = 2_000;
    service.before = (ask) => {
      if (ask.order === 'asc' && ask.page === 10) {
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
    const { service, client } = await mirrored(300);
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
    const service = await liveService(1_000);
    const client = mkt(service.url);
    service.before = (ask) => {
      if (ask.order === 'asc' && ask.page === 5 && service.records.length === 1_000) {
        for (let n = 1_000; n < 1_150; n++) service.records.push(record(n));
      }
      return false;
    };
    // The newest record before and after, 12 pages, and the start's newest found in its place.
    await expectSynced(client, service, [], { new_records: 1_150, total_records: 1_150, requests: 15 });
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
  // One service of 1,000 records and its first sync: each test adds records to the service, and syncs a copy of that mirror.
  const served: { close(): Promise<void> }[] = [];
  let first: { service: Awaited<ReturnType<typeof liveService>>; mirror: string };
  beforeAll(async () => {
    const service = await liveService(1_000, served);
    const { mirror, run } = mkt(service.url);
    expect((await run(['sync'])).code).toBe(0);
    first = { service, mirror };
  });
  afterAll(() => Promise.all(served.map((server) => server.close())));

  /** The service as the first sync left it, and a client of a copy of that sync's mirror. */
  function fromFirstSync() {
    const { service, mirror } = first;
    service.records.splice(1_000);
    service.asked.length = 0;
    service.before = () => false;
    return { service, client: mkt(service.url, copyMirror(mirror)) };
  }

  it('commits what it reads as it goes, and adds it to the mirror only when the sync is done', async () => {
    const { service, client } = fromFirstSync();
    for (let n = 1_000; n < 2_500; n++) service.records.push(record(n));
    service.before = (ask, respond) => ask.order === 'desc' && ask.page === 12 && (respond(400, FAILED), true);
    expect((await client.run(['sync'])).code).not.toBe(0);
    // At least its first 10 pages were committed to the staging table, and the mirror is as it was.
    expect((await client.ids('mkt_walk_results')).length).toBeGreaterThanOrEqual(1_000);
    expect(await client.ids()).toHaveLength(1_000);
    service.before = () => false;
    await expectSynced(client, service, [], { new_records: 1_500, total_records: 2_500, full_walk: false });
  }, 60_000);

  it('commits every 100 pages when no test asks for fewer', async () => {
    const { service, client } = fromFirstSync();
    for (let n = 1_000; n < 16_200; n++) service.records.push(record(n));
    service.before = (ask, respond) => ask.order === 'desc' && ask.page === 150 && (respond(400, FAILED), true);
    // Stopped at page 150: the commit of its first 100 pages is all the staging holds (50 pages to a
    // commit would have staged 150). A clock that stands still: no commit is due for the time since the last.
    const run = await runInProcess(['sync'], { env: client.env, now: () => START / 1000 });
    expect(run.code).not.toBe(0);
    expect(await client.ids('mkt_walk_results')).toHaveLength(10_000);
  }, 60_000);

  it('stops a service that never stops sending newer records', async () => {
    const { service, client } = await mirrored(500);
    let next = 500;
    service.before = (ask) => {
      // Before every page it is asked for, two pages of newer records arrive: each page holds new ones.
      if (ask.order === 'desc') for (const end = next + 200; next < end; next++) service.records.push(record(next));
      return false;
    };
    const run = await client.run(['sync']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: 'mkt: the service keeps sending the same records: page 107 is far past the pages it reported\n',
    });
    expect(await client.ids()).toHaveLength(500);
  }, 60_000);
});
