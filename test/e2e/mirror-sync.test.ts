import { execFileSync } from 'node:child_process';
import { statSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { addVersions, control, listVersions } from '../contract/http.js';
import { openDuckDB } from '../helpers/duckdb.js';
import { copyMirror } from '../helpers/mirror-copy.js';
import { startRelay, useRelays } from '../helpers/relay.js';
import { type InProcessOptions, runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { virtualClock } from '../helpers/virtual-clock.js';

// Issue 16: mkt sync keeps a mirror that holds exactly what the service answers.
// The first test's service is large enough for a count past a thousand; the others' are smaller.
const big = useSandbox({ records: 1200 });
/** The others' service: a few pages, of each fee schedule a test adds a version to. */
const SMALL = 150;
const sandbox = useSandbox({ records: SMALL });
const relay = useRelays();

interface Version {
  exchange_name: string;
  fee_type: string;
  version_id: string;
  records: number;
}

interface Summary {
  mirror: string;
  new_records: number;
  changed_records: number;
  removed_records: number;
  new_versions: Version[];
  removed_versions: Version[];
  changed_groups: { exchange_name: string; fee_type: string }[];
  requests: number;
  total_records: number;
  full_walk: boolean;
}

/** `clock`: the sandbox's, where its rate limit is not what a test waits for. */
function mkt(url: string, key: string, mirror: string, clock: Pick<InProcessOptions, 'now' | 'sleep'> = {}) {
  const env = { MKT_BASE_URL: url, MKT_API_KEY: key, MKT_MIRROR: mirror };
  return {
    run: (args: readonly string[]) => runInProcess(args, { env, ...clock }),
    async sync(...args: string[]): Promise<{ code: number; summary: Summary; stderr: string }> {
      const run = await runInProcess(['sync', '-f', 'json', ...args], { env, ...clock });
      return { code: run.code, summary: run.stdout ? (JSON.parse(run.stdout) as Summary) : (undefined as never), stderr: run.stderr };
    },
  };
}

/**
 * The invariant: the mirror answers every record of the service, byte for byte. `url` is the one
 * the mirror was synced from: to results --offline, a relay in front of a sandbox is another service.
 */
async function expectMirrorEqualsService(
  url: string,
  key: string,
  mirror: string,
  filters: readonly string[] = [],
  clock: Pick<InProcessOptions, 'now' | 'sleep'> = {},
): Promise<void> {
  const online = await mkt(url, key, mirror, clock).run(['results', '--all', '-f', 'ndjson', ...filters]);
  const offline = await mkt(url, key, mirror).run(['results', '--offline', '--all', '-f', 'ndjson', ...filters]);
  expect(online.code).toBe(0);
  expect(offline.stderr).toBe('');
  expect(offline.stdout).toBe(online.stdout);
}

const newMirror = () => join(tempDir('mkt-mirror-'), 'm.duckdb');

/** The sandbox's versions that have records now, as a sync's summary names them: the filter table's spelling, in its order. */
async function liveVersions(on: RunningSandbox): Promise<Version[]> {
  const listed = await listVersions(on);
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return listed
    .filter((version) => !version.withdrawn)
    .map(({ exchange_name, fee_type, version_id, records }) => ({ exchange_name, fee_type: fee_type === 'OPTION' ? 'Option' : fee_type, version_id, records }))
    .sort((a, b) => order(a.exchange_name, b.exchange_name) || order(a.fee_type, b.fee_type) || order(a.version_id, b.version_id));
}

/** The fee schedules of some versions, each once, in order. */
const groupsOf = (versions: readonly Version[]) =>
  [...new Set(versions.map((version) => `${version.exchange_name}\t${version.fee_type}`))].sort().map((group) => {
    const [exchange_name, fee_type] = group.split('\t') as [string, string];
    return { exchange_name, fee_type };
  });

/** A relay's rewrite that makes `change` to each record an answer carries. */
function eachRecord(change: (record: { id: string; exchange_name: string; fee_type: string; version_id: string }) => void): (body: string) => string {
  return (body) => {
    const page = JSON.parse(body) as { data?: unknown };
    if (!Array.isArray(page.data)) return body;
    for (const record of page.data) change(record);
    return JSON.stringify(page);
  };
}

/** A service whose records spell their fee type in upper case one time in two (by id): `EQUITY`, `OPTION`. */
const halfUpperCase = eachRecord((record) => {
  if (parseInt(record.id.slice(-1), 16) % 2 === 0) record.fee_type = record.fee_type.toUpperCase();
});

/**
 * The first sync of the sandbox as it starts, through a relay that lives as long as the file and
 * counts what tests send: tests that start from a mirror that holds the service read copies of
 * this one, whose service is the relay. The relay passes requests to `behind`, the sandbox, or
 * one a test started as the sandbox started (freshService) to change it, and rewrites their
 * answers with `servedRewrite`, which changes nothing unless a test says so. The state test
 * syncs the file the first sync wrote (`synced`), with the state it left in `cache`, believed of
 * that file alone; the others copy `mirror`, a copy of it made before.
 */
const first = {} as { mirror: string; synced: string; cache: string };
let served: Awaited<ReturnType<typeof startRelay>>;
let behind: RunningSandbox;
let servedRewrite: (body: string) => string;
beforeAll(async () => {
  behind = sandbox.current;
  served = await startRelay(() => behind.url, { rewrite: (_request, _status, body) => servedRewrite(body) });
  servedRewrite = (body) => body;
  first.synced = newMirror();
  first.cache = tempDir('mkt-cache-');
  const env = { MKT_BASE_URL: served.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: first.synced, MKT_CACHE_DIR: first.cache };
  expect((await runInProcess(['sync'], { env })).code).toBe(0);
  first.mirror = copyMirror(first.synced);
});
afterAll(() => served?.close());

const started: RunningSandbox[] = [];
beforeEach(() => {
  behind = sandbox.current;
  servedRewrite = (body) => body;
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.close()));
});

/**
 * A sandbox as the first sync found the service (the same seed and records: the same data), for
 * a test to change, which `served` now passes requests to: a copy of the first sync's mirror
 * holds it already, with no sync to catch up on what other tests added.
 */
async function freshService(): Promise<RunningSandbox> {
  const service = await startSandbox({ port: 0, records: SMALL });
  started.push(service);
  behind = service;
  return service;
}

describe('mkt sync', () => {
  it('makes a mirror at the first sync, with true types, and says so on stderr', async () => {
    const mirror = newMirror();
    const { url, keys } = big.current;
    const { code, summary, stderr } = await mkt(url, keys.api_key, mirror).sync();
    expect(code).toBe(0);
    // 12 pages, and the newest record before and after them, which tell the walk saw the service unchanged.
    expect(summary).toMatchObject({ mirror, new_records: 1200, changed_records: 0, removed_records: 0, removed_versions: [], requests: 14, total_records: 1200, full_walk: true });
    expect(Object.keys(summary)).toEqual([
      'mirror', 'new_records', 'changed_records', 'removed_records', 'new_versions', 'removed_versions', 'changed_groups', 'requests', 'total_records', 'full_walk',
    ]);
    // Each version once, in the filter table's spelling (the sandbox spells some OPTION), and each fee schedule once.
    const versions = await liveVersions(big.current);
    expect(summary.new_versions).toEqual(versions);
    expect(summary.changed_groups).toEqual(groupsOf(versions));
    expect(stderr).toMatch(new RegExp(`^synced ${mirror}: 1,200 new records \\(${versions.length} fee schedules\\) · 1,200 records in all · 14 requests · full walk · \\d+\\.\\d s\\n$`));
    await expectMirrorEqualsService(url, keys.api_key, mirror);

    const duck = await openDuckDB();
    try {
      await duck.rows(`ATTACH '${mirror}' AS m (READ_ONLY)`);
      const columns = await duck.rows("SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 'm' AND table_name = 'results'");
      // The document's 26 fields, then the citation fields (docs/mirror.md).
      expect(columns.slice(26)).toEqual([
        { column_name: 'source_document', data_type: 'VARCHAR' },
        { column_name: 'source_link', data_type: 'VARCHAR' },
        { column_name: 'page_number', data_type: 'BIGINT' },
        { column_name: 'relationships', data_type: 'VARCHAR' },
      ]);
      expect(columns.find((column) => column.column_name === 'scraped_time')?.data_type).toBe('TIMESTAMP WITH TIME ZONE');
      expect(columns.find((column) => column.column_name === 'created_on')?.data_type).toBe('TIMESTAMP');
      const [micros] = await duck.rows('SELECT count(*) FILTER (epoch_us(created_on) % 1000000 <> 0)::INTEGER AS with_micros, count(DISTINCT id)::INTEGER AS ids FROM m.results');
      expect(micros).toEqual({ with_micros: 1200, ids: 1200 });
      const [view] = await duck.rows("SELECT count(*)::INTEGER AS n FROM m.results_with_values WHERE fee_amount_value IS NOT NULL");
      expect(view?.n).toBeGreaterThan(1000);
    } finally {
      duck.close();
    }
  });

  it('costs one request when nothing is new, and exits 0 with --exit-code', async () => {
    const mirror = copyMirror(first.mirror);
    const { url, keys } = sandbox.current;
    const other = await relay(url);
    const again = await mkt(other.url, keys.api_key, mirror).sync('--exit-code');
    // A mirror belongs to one service: another relay is another base URL, so it is named with --full-refresh once.
    expect(again.code).toBe(2);
    expect(other.requests).toHaveLength(0);
    served.requests.length = 0;
    const nothing = await mkt(served.url, keys.api_key, mirror).sync('--exit-code');
    expect(nothing).toMatchObject({ code: 0, summary: { new_records: 0, removed_records: 0, new_versions: [], removed_versions: [], changed_groups: [], requests: 1, full_walk: false } });
    expect(served.requests).toHaveLength(1);
  });

  it('tells nothing new from one request and the state the last sync left, and is not fooled once the mirror changes', async () => {
    // The first sync's mirror itself, and the state that sync left.
    const mirror = first.synced;
    const service = await freshService();
    const { keys } = service;
    const env = { MKT_BASE_URL: served.url, MKT_API_KEY: keys.api_key, MKT_MIRROR: mirror, MKT_CACHE_DIR: first.cache };
    const sync = async () => {
      served.requests.length = 0;
      const run = await runInProcess(['sync', '-f', 'json', '--exit-code'], { env });
      return { code: run.code, summary: JSON.parse(run.stdout) as Summary, requests: served.requests.length };
    };
    const { mtimeMs } = statSync(mirror);
    const nothing = await sync();
    expect(nothing).toMatchObject({ code: 0, requests: 1, summary: { new_records: 0, removed_records: 0, requests: 1, total_records: SMALL } });
    // Not opened at all: the file is as the first sync left it.
    expect(statSync(mirror).mtimeMs).toBe(mtimeMs);

    const added = (await addVersions(service, { exchange_name: 'NYSE', fee_type: 'Equity', added: 3 }))[0]!;
    const found = await sync();
    expect(found).toMatchObject({ code: 10, summary: { new_records: added.records, full_walk: false } });
    expect(found.requests).toBeLessThanOrEqual(Math.ceil(added.records / 100) + 2);
    expect((await sync()).requests).toBe(1);

    // A mirror changed by anything but a sync is opened and checked again: the lost row, the oldest,
    // which no page of newer records holds, comes back by a full walk.
    const duck = await openDuckDB();
    try {
      await duck.rows(`ATTACH '${mirror}' AS m`);
      await duck.rows('DELETE FROM m.results WHERE id = (SELECT id FROM m.results ORDER BY created_on, id LIMIT 1)');
      await duck.rows('DETACH m');
    } finally {
      duck.close();
    }
    const repaired = await sync();
    expect(repaired.summary).toMatchObject({ new_records: 1, full_walk: true });
    await expectMirrorEqualsService(served.url, keys.api_key, mirror);
  });

  it('fetches only new versions, K records in at most ceil(K/100) + 2 requests, one created_on across pages', async () => {
    const mirror = copyMirror(first.mirror);
    const service = await freshService();
    const client = mkt(served.url, service.keys.api_key, mirror);
    // 250 new items in one version: all its records share one created_on, across three pages.
    const version = (await addVersions(service, { exchange_name: 'NYSE', fee_type: 'Equity', added: 250 }))[0]!;
    served.requests.length = 0;
    const { code, summary, stderr } = await client.sync('--exit-code');
    expect(code).toBe(10);
    expect(summary.new_records).toBe(version.records);
    expect(summary.new_versions).toEqual([{ exchange_name: 'NYSE', fee_type: 'Equity', version_id: version.version_id, records: version.records }]);
    expect(summary.removed_versions).toEqual([]);
    expect(summary.changed_groups).toEqual([{ exchange_name: 'NYSE', fee_type: 'Equity' }]);
    expect(summary.full_walk).toBe(false);
    expect(served.requests.length).toBeLessThanOrEqual(Math.ceil(version.records / 100) + 2);
    expect(stderr).toContain(`${version.records} new records (NYSE Equity)`);
    expect(stderr).toMatch(/\nRun `mkt diff NYSE Equity` to see what changed\.\n$/);
    await expectMirrorEqualsService(served.url, service.keys.api_key, mirror);
  });

  it('removes the records of a withdrawn version and notes them in mkt_removed_results', async () => {
    const mirror = copyMirror(first.mirror);
    const service = await freshService();
    const { keys } = service;
    const client = mkt(served.url, keys.api_key, mirror);
    const version = (await addVersions(service, { exchange_name: 'CBOE', fee_type: 'Option', added: 5 }))[0]!;
    expect((await client.sync()).code).toBe(0);
    expect((await control(service, 'DELETE', `versions/${version.version_id}`)).status).toBe(200);
    const { code, summary, stderr } = await client.sync('--exit-code');
    expect(code).toBe(10);
    expect(summary).toMatchObject({ removed_records: version.records, new_records: 0, new_versions: [], full_walk: true });
    // The withdrawal names its venue, in the filter table's spelling.
    expect(summary.removed_versions).toEqual([{ exchange_name: 'CBOE', fee_type: 'Option', version_id: version.version_id, records: version.records }]);
    expect(summary.changed_groups).toEqual([{ exchange_name: 'CBOE', fee_type: 'Option' }]);
    expect(stderr).toContain(`: ${version.records} records removed (CBOE Option) · `);
    await expectMirrorEqualsService(served.url, keys.api_key, mirror);
    const noted = await client.run(['sql', `SELECT count(*) AS n, count(DISTINCT version_id) AS versions FROM mkt_removed_results WHERE version_id = '${version.version_id}'`, '-f', 'csv']);
    expect(noted.stdout).toBe(`n,versions\r\n${version.records},1\r\n`);
  });

  it('names a version once, in the filter table\'s spelling, when its records spell the fee type two ways', async () => {
    const service = await freshService();
    const { url, keys } = service;
    const mixed = await relay(url, { rewrite: (_request, _status, body) => halfUpperCase(body) });
    const client = mkt(mixed.url, keys.api_key, newMirror());
    const first = await client.sync();
    const versions = await liveVersions(service);
    expect(first.summary.new_versions).toEqual(versions);
    expect(first.summary.changed_groups).toEqual(groupsOf(versions));
    expect(first.stderr).toContain(` new records (${versions.length} fee schedules) · `);

    const added = (await addVersions(service, { exchange_name: 'NASDAQ', fee_type: 'Option', added: 40 }))[0]!;
    const { code, summary, stderr } = await client.sync('--exit-code');
    expect(code).toBe(10);
    expect(summary.new_versions).toEqual([{ exchange_name: 'NASDAQ', fee_type: 'Option', version_id: added.version_id, records: added.records }]);
    expect(summary.changed_groups).toEqual([{ exchange_name: 'NASDAQ', fee_type: 'Option' }]);
    expect(stderr).toContain(`: ${added.records} new records (NASDAQ Option) · `);
    expect(stderr).toMatch(/\nRun `mkt diff NASDAQ Option` to see what changed\.\n$/);
  });

  it('names both versions of records that come back under another version and exchange, and both fee schedules', async () => {
    // The first sync's mirror, of the service as it was.
    const service = await freshService();
    const client = mkt(served.url, service.keys.api_key, copyMirror(first.mirror));
    const from = (await liveVersions(service)).find((version) => version.exchange_name === 'NYSE' && version.fee_type === 'Equity')!;
    const to = '00000000-0000-4000-8000-000000000036';
    // The same ids, now of an IEX version: the service's content for them changed.
    servedRewrite = eachRecord((record) => {
      if (record.version_id === from.version_id) Object.assign(record, { exchange_name: 'IEX', version_id: to });
    });
    const { code, summary } = await client.sync('--full-refresh');
    expect(code).toBe(0);
    expect(summary).toMatchObject({ new_records: 0, changed_records: from.records, removed_records: 0 });
    expect(summary.new_versions).toEqual([{ exchange_name: 'IEX', fee_type: 'Equity', version_id: to, records: from.records }]);
    expect(summary.removed_versions).toEqual([from]);
    expect(summary.changed_groups).toEqual([{ exchange_name: 'IEX', fee_type: 'Equity' }, { exchange_name: 'NYSE', fee_type: 'Equity' }]);
  });

  it('keeps a mirror to its filters: others are a usage error with nothing sent, unless --full-refresh', async () => {
    const mirror = newMirror();
    const { url, keys } = sandbox.current;
    const counted = await relay(url);
    const client = mkt(counted.url, keys.api_key, mirror);
    expect((await client.sync('--exchange-name', 'NYSE', '--fee-type', 'option')).code).toBe(0);
    counted.requests.length = 0;
    const other = await client.sync('--exchange-name', 'CBOE');
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      'mkt: the mirror was synced with --exchange-name NYSE --fee-type Option, and this sync names --exchange-name CBOE\n'
        + 'A mirror answers one set of filters from one service: name another with --mirror, or rebuild this one with --full-refresh.\n',
    );
    const unfiltered = await client.sync();
    expect(unfiltered.code).toBe(2);
    expect(unfiltered.stderr.split('\n')[0]).toBe('mkt: the mirror was synced with --exchange-name NYSE --fee-type Option, and this sync names no filters');
    expect(counted.requests).toHaveLength(0);
    const rebuilt = await client.sync('--exchange-name', 'CBOE', '--full-refresh');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.summary.full_walk).toBe(true);
    await expectMirrorEqualsService(counted.url, keys.api_key, mirror, ['--exchange-name', 'CBOE']);
    // Not NYSE's any more, and nothing it does not hold.
    const outside = await client.run(['results', '--offline', '--exchange-name', 'NYSE']);
    expect(outside.code).toBe(2);
    expect(outside.stderr.split('\n')[0]).toBe('mkt: the mirror cannot answer this: the mirror holds no --exchange-name NYSE, only CBOE');
  });

  it('refuses a directory, a named pipe or a device as the mirror, in every mirror command, with nothing sent', async () => {
    const dir = tempDir('mkt-mirror-');
    const pipe = join(dir, 'pipe.duckdb');
    execFileSync('mkfifo', [pipe]);
    const { url, keys } = sandbox.current;
    const counted = await relay(url);
    const cases = [
      [dir, 'a directory'],
      [pipe, 'a named pipe'],
      ['/dev/null', 'a device'],
    ] as const;
    for (const [mirror, kind] of cases) {
      for (const args of [['sync'], ['sql', 'SELECT 1'], ['results', '--offline'], ['diff', 'NYSE', 'Equity']]) {
        const run = await mkt(counted.url, keys.api_key, mirror).run([...args, '--mirror', mirror]);
        expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
          args,
          code: 2,
          stdout: '',
          stderr: `mkt: ${mirror} is ${kind}, not a mirror\nGive --mirror the path of a file.\n`,
        });
      }
    }
    expect(counted.requests).toHaveLength(0);
  });

  it('says a full disk cannot be written, exit 1, and the next sync carries on', async () => {
    const mirror = newMirror();
    // DuckDB's log, written at every commit, goes to a device where every write is ENOSPC.
    symlinkSync('/dev/full', `${mirror}.wal`);
    const { url, keys } = sandbox.current;
    const full = await mkt(url, keys.api_key, mirror).run(['sync']);
    expect({ code: full.code, stdout: full.stdout }).toEqual({ code: 1, stdout: '' });
    expect(full.stderr).toBe(
      `mkt: cannot write the mirror ${mirror}: TransactionContext Error: Failed to commit: Could not write file "${mirror}.wal": No space left on device\n`
      + 'The mirror keeps what this sync committed; the next `mkt sync` carries on.\n',
    );
    unlinkSync(`${mirror}.wal`);
    expect((await mkt(url, keys.api_key, mirror).sync()).code).toBe(0);
    await expectMirrorEqualsService(url, keys.api_key, mirror);
  });

  it('loses nothing to faults and 429s mid-sync', async () => {
    // One clock for the sandbox's windows and the client's waits, which it skips: the 429s and
    // their Retry-After are what the sync meets, not the seconds they would take.
    const clock = virtualClock();
    const faulty = await startSandbox({ port: 0, records: 900, faults: true, rate: { requests: 6, seconds: 1 }, now: clock.now });
    try {
      const mirror = newMirror();
      const client = mkt(faulty.url, faulty.keys.api_key, mirror, clock);
      const { code, summary } = await client.sync();
      expect(code).toBe(0);
      expect(summary.total_records).toBe(900);
      await addVersions(faulty, { groups: 3, added: 40 });
      expect((await client.sync()).code).toBe(0);
      await expectMirrorEqualsService(faulty.url, faulty.keys.api_key, mirror, [], clock);
    } finally {
      await faulty.close();
    }
  }, 60_000);
});
