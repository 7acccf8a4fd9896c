import { describe, expect, it } from 'vitest';
import type { FeeScheduleResult } from '../../src/api/types.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { RUN_STAMP, useSandbox } from '../helpers/sandbox.js';
import { type AddedVersionAnswer, addVersions, control, getAllResults, getResults, listVersions, type Query } from './http.js';

// The tests of this file run in order, on one sandbox whose data they change.
const sandbox = useSandbox({ records: 250, seed: 11 });

/** A group whose latest version has records enough that the next one both changes and leaves out some. */
const GROUP = { exchange_name: 'MIAX', fee_type: 'Option' };
/** More than a page of 7, so that page boundaries fall inside the run of one created_on. */
const ADDED = 20;

/** The fields a version's records carry for themselves; the rest is the item's. */
const OWN_FIELDS = ['id', 'version_id', 'scraped_time', 'created_on'] as const;

function item(record: FeeScheduleResult, without: readonly string[] = OWN_FIELDS): string {
  return JSON.stringify(Object.entries(record).filter(([name]) => !without.includes(name)));
}

function maxOf(values: readonly string[]): string {
  return values.reduce((max, value) => (value > max ? value : max), '');
}

async function ids(query: Query): Promise<string[]> {
  return (await getAllResults(sandbox.current, { query })).records.map((record) => record.id);
}

let before: FeeScheduleResult[] = [];
let added: AddedVersionAnswer;

describe('adding a version', () => {
  it('answers what it added: a new version of the group, derived from its latest', async () => {
    before = (await getAllResults(sandbox.current)).records;
    const latestBefore = (await getAllResults(sandbox.current, { query: { ...GROUP, latest_only: true } })).records;
    [added] = (await addVersions(sandbox.current, { ...GROUP, added: ADDED })) as [AddedVersionAnswer];
    expect(added).toMatchObject({ exchange_name: 'MIAX', added: ADDED, derived_from: latestBefore[0]!.version_id });
    expect(added.records).toBe(latestBefore.length - added.removed + ADDED);
    expect(added.changed).toBeGreaterThan(0);
    expect(added.removed).toBeGreaterThan(0);
    expect(before.map((record) => record.version_id)).not.toContain(added.version_id);
  });

  it('serves its records with one created_on, later than any before, a later scraped_time and new ids', async () => {
    const after = (await getAllResults(sandbox.current)).records;
    const version = after.filter((record) => record.version_id === added.version_id);
    expect(version).toHaveLength(added.records);
    expect(new Set(version.map((record) => record.created_on))).toEqual(new Set([added.created_on]));
    expect(added.created_on > maxOf(before.map((record) => record.created_on))).toBe(true);
    expect(new Set(version.map((record) => record.scraped_time))).toEqual(new Set([added.scraped_time]));
    expect(added.scraped_time > maxOf(before.map((record) => record.scraped_time))).toBe(true);
    const oldIds = new Set(before.map((record) => record.id));
    expect(version.filter((record) => oldIds.has(record.id))).toEqual([]);
    expect(new Set(version.map((record) => record.id)).size).toBe(version.length);
  });

  it('keeps, changes the amount of, and leaves out items of the version it derives from', async () => {
    const previous = before.filter((record) => record.version_id === added.derived_from);
    const version = (await getAllResults(sandbox.current)).records.filter((record) => record.version_id === added.version_id);
    const withoutAmount = [...OWN_FIELDS, 'fee_amount'];
    const previousItems = new Set(previous.map((record) => item(record)));
    const previousWithoutAmount = new Set(previous.map((record) => item(record, withoutAmount)));
    const kept = version.filter((record) => previousItems.has(item(record)));
    const changed = version.filter(
      (record) => !previousItems.has(item(record)) && previousWithoutAmount.has(item(record, withoutAmount)),
    );
    expect(kept).toHaveLength(previous.length - added.removed - added.changed);
    expect(changed).toHaveLength(added.changed);
    expect(version.length - kept.length - changed.length).toBe(ADDED);
  });

  it('replaces the previous version of its group under latest_only', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { ...GROUP, latest_only: true } });
    expect(new Set(records.map((record) => record.version_id))).toEqual(new Set([added.version_id]));
    expect(records).toHaveLength(added.records);
  });

  it('grows total_records by its size, in the envelope and in the pages', async () => {
    const { records, pages } = await getAllResults(sandbox.current);
    expect(pages[0]!.total_records).toBe(before.length + added.records);
    expect(records).toHaveLength(before.length + added.records);
  });

  it('pages over a shared created_on without skipping or repeating a record, ties broken by id', async () => {
    // Newest first (the default order): the added version fills the first pages, its ids in descending order.
    const { records } = await getAllResults(sandbox.current, { query: { page_size: 7 } });
    for (const order_dir of ['desc', 'asc']) {
      const bySeven = order_dir === 'desc' ? records.map((record) => record.id) : await ids({ page_size: 7, order_dir });
      const byHundred = await ids({ page_size: 100, order_dir });
      expect(bySeven).toEqual(byHundred);
      expect(new Set(bySeven).size).toBe(before.length + added.records);
    }
    const first = records.slice(0, added.records);
    expect(first.every((record) => record.version_id === added.version_id)).toBe(true);
    const firstIds = first.map((record) => record.id);
    expect(firstIds).toEqual([...firstIds].sort().reverse());
  });

  it('keeps every other order total too', async () => {
    for (const order_by of ['supplier_name', 'fee_type', 'fee_category', 'scraped_time']) {
      const bySeven = await ids({ page_size: 7, order_by, order_dir: 'asc' });
      expect(bySeven, order_by).toEqual(await ids({ page_size: 100, order_by, order_dir: 'asc' }));
      expect(new Set(bySeven).size, order_by).toBe(before.length + added.records);
    }
  });

  it('adds versions to several groups at once, each scraped later than the one before', async () => {
    const versions = await addVersions(sandbox.current, { groups: 3 });
    expect(versions).toHaveLength(3);
    expect(new Set(versions.map((version) => `${version.exchange_name}/${version.fee_type.toLowerCase()}`)).size).toBe(3);
    const created = versions.map((version) => version.created_on);
    expect(created).toEqual([...created].sort());
    expect(created[0]! > added.created_on).toBe(true);
  });
});

describe('withdrawing a version', () => {
  it('removes its records from every answer, and latest_only falls back to the version before', async () => {
    const { status, body } = await control<{ withdrawn: { version_id: string; records: number }; latest_version_id: string }>(
      sandbox.current,
      'DELETE',
      `versions/${added.version_id}`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ withdrawn: { version_id: added.version_id, records: added.records }, latest_version_id: added.derived_from });
    const queries: Query[] = [{}, { order_by: 'supplier_name' }, { order_dir: 'asc' }, GROUP, { latest_only: true }, { fee_type: 'Option' }];
    for (const query of queries) {
      const { records, pages } = await getAllResults(sandbox.current, { query });
      expect(records.filter((record) => record.version_id === added.version_id), JSON.stringify(query)).toEqual([]);
      expect(pages[0]!.total_records).toBe(records.length);
    }
    const latest = await getAllResults(sandbox.current, { query: { ...GROUP, latest_only: true } });
    expect(new Set(latest.records.map((record) => record.version_id))).toEqual(new Set([added.derived_from]));
  });

  it('answers 404 JSON for a version already withdrawn, and for an unknown one', async () => {
    for (const versionId of [added.version_id, '00000000-0000-4000-8000-000000000000']) {
      const { status, headers, body } = await control(sandbox.current, 'DELETE', `versions/${versionId}`);
      expect(status).toBe(404);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expect(body).toEqual({ detail: `Version '${versionId}' not found.` });
    }
  });

  it('derives the next version of the group from the one before the withdrawn one', async () => {
    const [next] = await addVersions(sandbox.current, GROUP);
    expect(next!.derived_from).toBe(added.derived_from);
  });
});

describe('the control routes', () => {
  it('answer bad calls with 404, 405 and 422, and leave the service paths GET-only', async () => {
    expect((await control(sandbox.current, 'POST', 'versions', { exchange_name: 'NO_SUCH', fee_type: 'Option' })).status).toBe(404);
    expect((await control(sandbox.current, 'POST', 'versions', { exchange_name: 'NYSE' })).status).toBe(422);
    expect((await control(sandbox.current, 'POST', 'versions', { groups: 0 })).status).toBe(422);
    expect((await control(sandbox.current, 'PUT', 'versions')).status).toBe(405);
    expect((await control(sandbox.current, 'GET', 'nothing')).status).toBe(404);
    const post = await fetch(`${sandbox.current.url}/api/v1/fee-schedule-results`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('lists the versions, withdrawn ones marked', async () => {
    // listVersions fails unless the route answers 200.
    expect((await listVersions(sandbox.current)).find((version) => version.version_id === added.version_id)).toMatchObject({ withdrawn: true });
  });

  it('are exempt from the rate limit and faults', async () => {
    const limited = await startSandbox({ port: 0, records: 100, rate: { requests: 1, seconds: 3600 }, faults: true });
    try {
      for (let i = 0; i < 5; i++) {
        const { status, headers } = await control(limited, 'POST', 'versions', { groups: 1 });
        expect(status).toBe(201);
        expect(headers.get('x-ratelimit-remaining')).toBeNull();
      }
      // The budget of one request is still there: the first is served (or faulted), the second refused.
      const served = (await getResultsText(limited)) ?? 'connection cut by a fault';
      expect(served).not.toMatch(/Rate limit exceeded/);
      expect(await getResultsText(limited)).toMatch(/Rate limit exceeded/);
    } finally {
      await limited.close();
    }
  });
});

/** The text of a results answer, or undefined when a fault cut the connection. */
async function getResultsText(target: RunningSandbox): Promise<string | undefined> {
  return getResults(target).then((answer) => answer.text, () => undefined);
}

describe('determinism', () => {
  /** Every answer of a fixed sequence of calls, query_time aside. */
  async function transcript(seed: number, groups: number): Promise<string[]> {
    const fresh = await startSandbox({ port: 0, records: 250, seed });
    try {
      const texts: string[] = [];
      const first = await control<{ versions: AddedVersionAnswer[] }>(fresh, 'POST', 'versions', { groups });
      texts.push(first.text);
      texts.push((await control(fresh, 'POST', 'versions', { exchange_name: 'CBOE', fee_type: 'Option', added: 9 })).text);
      texts.push((await control(fresh, 'DELETE', `versions/${first.body.versions[0]!.version_id}`)).text);
      const queries: Query[] = [{ page_size: 7 }, { page_size: 7, page_number: 1 }, { latest_only: true, page_size: 100 }, { order_by: 'fee_type', page_size: 50 }];
      for (const query of queries) {
        texts.push((await getResults(fresh, { query })).text.replace(/"query_time":[^,}]+/, ''));
      }
      return texts;
    } finally {
      await fresh.close();
    }
  }

  it('serves the same bytes for the same seed and the same calls, but the run stamp of added ids, and other bytes for other calls', async () => {
    const unstamped = (texts: string[]) => texts.map((text) => text.replace(RUN_STAMP, 'RUN-'));
    const once = await transcript(5, 2);
    const again = await transcript(5, 2);
    expect(unstamped(again)).toEqual(unstamped(once));
    expect(unstamped(await transcript(5, 3))).not.toEqual(unstamped(once));
    expect(unstamped(await transcript(6, 2))).not.toEqual(unstamped(once));
  });

  it('never gives a version added in one run the ids of one added in an earlier run, with the same seed and calls: only its ids differ', async () => {
    /** The records of a run that added one NYSE Equity version, and that version's records, newest first. */
    async function run(): Promise<{ base: FeeScheduleResult[]; added: FeeScheduleResult[] }> {
      const fresh = await startSandbox({ port: 0, records: 300, seed: 7 });
      try {
        const [version] = await addVersions(fresh, { exchange_name: 'NYSE', fee_type: 'Equity' });
        const { records } = await getAllResults(fresh, { query: { order_dir: 'desc' } });
        return { base: records.filter((record) => record.version_id !== version!.version_id), added: records.filter((record) => record.version_id === version!.version_id) };
      } finally {
        await fresh.close();
      }
    }
    const earlier = await run();
    const later = await run();
    expect(later.base).toEqual(earlier.base);
    expect(later.added.length).toBeGreaterThan(0);
    const ids = (records: FeeScheduleResult[]) => records.flatMap((record) => [record.id, record.version_id]);
    expect(ids(later.added).filter((id) => ids([...earlier.added, ...earlier.base]).includes(id))).toEqual([]);
    for (const id of ids(later.added)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const unstamped = (records: FeeScheduleResult[]) => JSON.stringify(records).replace(RUN_STAMP, 'RUN-');
    expect(unstamped(later.added)).toBe(unstamped(earlier.added));
  });
});
