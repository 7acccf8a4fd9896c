import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import { AVAILABLE_FILTERS_PATH } from '../../src/api/paths.js';
import type { FeeScheduleResult } from '../../src/api/types.js';
import { type Difference, diffVersions } from '../../src/api/version-diff.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { type AddedVersionAnswer, addVersions, type ListedVersion, listVersions } from '../contract/http.js';
import { copyMirror } from '../helpers/mirror-copy.js';
import { sendJson, startRecordingServer, useRecordingServers } from '../helpers/recording-server.js';
import { startRelay, useRelays } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 18: mkt diff, from the service or the mirror.
const sandbox = useSandbox({ records: 450 });
const relay = useRelays();
const servers = useRecordingServers();

/** A version added to a group that has one already, from which it derives. */
async function addVersion(exchange: string, feeType: string, added = 0): Promise<AddedVersionAnswer & { derived_from: string }> {
  const version = (await addVersions(sandbox.current, { exchange_name: exchange, fee_type: feeType, added }))[0]!;
  expect(version.derived_from).toEqual(expect.any(String));
  return version as AddedVersionAnswer & { derived_from: string };
}

function env(extra: Record<string, string> = {}) {
  return { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, ...extra };
}

/** Every record of a group, by version_id, as the results endpoint answers. */
async function versionsOf(exchange: string, feeType: string): Promise<Map<string, FeeScheduleResult[]>> {
  const run = await runInProcess(['results', '--exchange-name', exchange, '--fee-type', feeType, '--all', '-f', 'json'], { env: env() });
  const byVersion = new Map<string, FeeScheduleResult[]>();
  for (const record of JSON.parse(run.stdout) as FeeScheduleResult[]) byVersion.set(record.version_id, [...(byVersion.get(record.version_id) ?? []), record]);
  return byVersion;
}

/** The relay the mirror of syncedMirror() was synced through, and that mirror: one sync for the tests that read it. */
let synced: Promise<{ counted: Awaited<ReturnType<typeof startRelay>>; mirror: string }> | undefined;
afterAll(async () => (await synced)?.counted.close());

/**
 * A mirror of BOX's records alone, with a new version of BOX Option, synced through a relay that
 * then counts the requests of the commands after the sync: copies of one sync's mirror. It holds
 * the group BOX Option as a mirror of the whole sandbox does, and is also the mirror of other
 * filters (`narrow`) for a group of another exchange, MIAX Option or NYSE Equity.
 */
async function syncedMirror() {
  synced ??= (async () => {
    await addVersion('BOX', 'Option', 1);
    const counted = await startRelay(sandbox.current.url);
    const mirror = join(tempDir('mkt-diff-'), 'm.duckdb');
    expect((await runInProcess(['sync', '--exchange-name', 'BOX'], { env: env({ MKT_BASE_URL: counted.url, MKT_MIRROR: mirror }) })).code).toBe(0);
    return { counted, mirror };
  })();
  const { counted, mirror: original } = await synced;
  const mirror = copyMirror(original);
  counted.requests.length = 0;
  return { mirror, narrow: copyMirror(original, 'narrow.duckdb'), counted, relayed: env({ MKT_BASE_URL: counted.url, MKT_MIRROR: mirror }) };
}

/** The request diff sends to learn the service's newest version of a group. */
const newestOfGroup = (exchange: string, feeType: string): string =>
  `/api/v1/fee-schedule-results?exchange_name=${exchange}&fee_type=${feeType}&order_by=scraped_time&order_dir=desc&page_size=1&page_number=0`;

const ndjson = (text: string): Difference[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Difference);

describe('mkt diff', () => {
  it('compares the newest version with the one before it: what the sandbox changed, added and removed, nothing else', async () => {
    const version = await addVersion('NYSE', 'Equity', 2);
    const counted = await relay(sandbox.current.url);
    const run = await runInProcess(['diff', 'NYSE', 'Equity', '-f', 'ndjson', '--exit-code'], { env: env({ MKT_BASE_URL: counted.url }) });
    expect(run.code).toBe(10);
    const differences = ndjson(run.stdout);
    const count = (change: string) => differences.filter((difference) => difference.change === change).length;
    expect({ changed: count('changed'), added: count('added'), removed: count('removed') }).toEqual({ changed: version.changed, added: version.added, removed: version.removed });
    for (const difference of differences.filter((each) => each.change === 'changed')) {
      expect(difference.fields).toEqual(['fee_amount']);
      expect(difference.before?.version_id).toBe(version.derived_from);
      expect(difference.after?.version_id).toBe(version.version_id);
    }
    const versions = await versionsOf('NYSE', 'Equity');
    expect(differences).toEqual(diffVersions(versions.get(version.derived_from)!, versions.get(version.version_id)!));
    expect(run.stderr).toBe(
      `NYSE Equity: ${version.changed} changed, ${version.added} added, ${version.removed} removed · `
        + `${version.derived_from} (${versions.get(version.derived_from)![0]!.scraped_time.slice(0, 10)}) → ${version.version_id} (${version.scraped_time.slice(0, 10)})\n`,
    );
    // Newest first, only as far as the two versions: their pages, and one more at most.
    const records = versions.get(version.version_id)!.length + versions.get(version.derived_from)!.length;
    expect(counted.requests.length).toBeLessThanOrEqual(Math.ceil(records / 100) + 1);
  });

  it('takes --from and --to as version_ids or dates, and exits 0 with --exit-code when the versions are the same', async () => {
    const first = await addVersion('CBOE', 'Option');
    const second = await addVersion('CBOE', 'Option');
    const byIds = await runInProcess(['diff', 'CBOE', 'option', '--from', first.derived_from, '--to', first.version_id, '-f', 'json'], { env: env() });
    expect(byIds.code).toBe(0);
    const versions = await versionsOf('CBOE', 'Option');
    expect(JSON.parse(byIds.stdout)).toEqual(diffVersions(versions.get(first.derived_from)!, versions.get(first.version_id)!));
    // A date: the newest version scraped on or before it.
    const byDate = await runInProcess(['diff', 'CBOE', 'Option', '--to', second.scraped_time.slice(0, 10), '-f', 'json'], { env: env() });
    const latest = await runInProcess(['diff', 'CBOE', 'Option', '-f', 'json'], { env: env() });
    expect(byDate.stdout).toBe(latest.stdout);
    const same = await runInProcess(['diff', 'CBOE', 'Option', '--from', second.version_id, '--to', second.version_id, '--exit-code', '-f', 'ndjson'], { env: env() });
    expect(same).toMatchObject({ code: 0, stdout: '' });
    expect(same.stderr).toMatch(/^CBOE Option: no differences · /);
  });

  it('says so, exit 0, for a group with one version only', async () => {
    // A small sandbox, where some groups have a single version.
    const small = await startSandbox({ port: 0, records: 60 });
    try {
      const groups = new Map<string, ListedVersion[]>();
      for (const version of await listVersions(small)) {
        const key = `${version.exchange_name} ${version.fee_type.toLowerCase()}`;
        groups.set(key, [...(groups.get(key) ?? []), version]);
      }
      const [only] = [...groups.values()].find((versions) => versions.length === 1)!;
      const feeType = only!.fee_type.toLowerCase() === 'option' ? 'Option' : 'Equity';
      const run = await runInProcess(['diff', only!.exchange_name, feeType, '--exit-code'], { env: { MKT_BASE_URL: small.url, MKT_API_KEY: small.keys.api_key } });
      expect(run).toMatchObject({ code: 0, stdout: '[]\n' });
      expect(run.stderr).toBe(`${only!.exchange_name} ${feeType} has one version only (${only!.version_id}, scraped ${only!.scraped_time}): nothing to compare\n`);
    } finally {
      await small.close();
    }
  });

  it('writes a bulletin table, and CSV one row per changed field; --parse-amounts shows how much an amount moved', async () => {
    const version = await addVersion('NASDAQ', 'Option', 1);
    const table = await runInProcess(['diff', 'NASDAQ', 'Option', '--parse-amounts', '-f', 'table'], { env: env() });
    const lines = table.stdout.split('\n');
    expect(lines[1]).toMatch(/^│ Exchange +│ Item +│ Field +│ Was +│ Now +│ Effective +│$/);
    const changedRow = lines.find((line) => line.includes('fee_amount'));
    expect(changedRow).toMatch(new RegExp(`│ NASDAQ +│ .+ │ fee_amount +│ \\S+ +│ \\S+ \\([+-]\\d+(\\.\\d+)? USD\\) +│ ${version.scraped_time.slice(0, 10)} │`));
    expect(lines.some((line) => / │ new item +│ +│ \S/.test(line))).toBe(true);

    const csv = await runInProcess(['diff', 'NASDAQ', 'Option', '--parse-amounts', '-f', 'csv'], { env: env() });
    const rows = csv.stdout.trimEnd().split('\r\n');
    expect(rows[0]).toBe('change,exchange_name,fee_type,item,field,was,now,effective,from_version,to_version,before_id,after_id,amount_change,amount_unit');
    expect(rows).toHaveLength(1 + version.changed + version.added + version.removed);
    expect(rows.filter((row) => row.startsWith('changed,'))).toHaveLength(version.changed);
    for (const row of rows.filter((each) => each.startsWith('changed,'))) expect(row).toMatch(/,fee_amount,.*,-?\d+(\.\d+)?(e-\d+)?,USD$/);
  });

  it('reads the mirror when it holds the group and one request shows the service has nothing newer: the same answer', async () => {
    const { counted, relayed, narrow } = await syncedMirror();
    const offline = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json'], { env: relayed });
    // The fee type's spelling, asked once (nothing is kept in a fresh cache), then the one request.
    expect(counted.requests.map((request) => request.url)).toEqual([AVAILABLE_FILTERS_PATH, newestOfGroup('BOX', 'Option')]);
    const online = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json'], { env: env() });
    expect(offline.stdout).toBe(online.stdout);
    expect(ndjson(offline.stdout.replace(/^\[\n|\n\]\n$/g, '').replace(/,\n/g, '\n')).length).toBeGreaterThan(0);

    // A mirror of other filters does not hold the group: the service answers.
    const narrowEnv = env({ MKT_BASE_URL: counted.url, MKT_MIRROR: narrow });
    counted.requests.length = 0;
    const fromService = await runInProcess(['diff', 'MIAX', 'Option', '-f', 'json'], { env: narrowEnv });
    expect(fromService.stdout).toBe((await runInProcess(['diff', 'MIAX', 'Option', '-f', 'json'], { env: env() })).stdout);
    expect(counted.requests.length).toBeGreaterThan(0);
    const named = await runInProcess(['diff', 'MIAX', 'Option', '--mirror', narrow], { env: narrowEnv });
    expect(named.code).toBe(1);
    expect(named.stderr.split('\n')[0]).toBe(`mkt: the mirror ${narrow} does not hold MIAX Option: the mirror holds no --exchange-name MIAX, only BOX`);
  });

  it.each([
    [['diff', 'NYSE', 'Equity', '--online', '--offline'], 'mkt: give either --online or --offline, not both'],
    [['diff', 'NYSE', 'Equity', '--online', '--mirror', 'm.duckdb'], 'mkt: --mirror names the mirror to read, and --online reads none: leave one out'],
  ])('%j: exit 2, %s', async (args, message) => {
    const run = await runInProcess(args, { env: env() });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.split('\n')[0]).toBe(message);
  });

  it.each([
    [['diff', 'NYSE', 'Bond'], 2, 'mkt: <fee-type>: unknown value "Bond"'],
    [['diff', 'NYSE', 'Equity', '--from', '2024-02-30'], 2, 'mkt: --from: "2024-02-30" is not a date'],
    [['diff', 'NYSE', 'Equity', '--to', 'not a version'], 2, 'mkt: --to must be a version_id or a date (YYYY-MM-DD), not "not a version"'],
    [['diff', 'NYSE', 'Equity', '--to', '00000000-0000-4000-8000-000000000000'], 4, 'mkt: NYSE Equity has no version 00000000-0000-4000-8000-000000000000'],
    [['diff', 'NYSE'], 2, "mkt: missing required argument 'fee-type'"],
    [['diff', 'NYSE', 'Equity', '--to', '2000-01-31'], 4, 'mkt: NYSE Equity has no version scraped on or before 2000-01-31'],
    [['diff', 'NOPE', 'Equity'], 4, 'mkt: no results for NOPE Equity'],
  ])('%j: exit %i, %s', async (args, code, message) => {
    const run = await runInProcess(args, { env: env() });
    expect(run.code).toBe(code);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(message);
  });

  it('keeps an amount change to the last decimal place the amounts were written with (issue 35, point 8)', async () => {
    const record = (id: string, version: string, scraped: string, amount: string) =>
      Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, ({
        id, version_id: version, scraped_time: scraped, created_on: scraped.slice(0, 26), exchange_name: 'X', fee_type: 'Equity', fee_category: 'Participant Fee', fee_amount: amount,
      } as Record<string, string>)[name] ?? null]));
    const data = [record('b', 'v2', '2024-01-02T00:00:00.000000+00:00', '$0.000000000002'), record('a', 'v1', '2024-01-01T00:00:00.000000+00:00', '$0.000000000001')];
    const server = await servers((_request, response) =>
      sendJson(response, 200, { success: true, message: '', data, total_records: 2, page_size: 100, total_pages: 1, current_page: 0, query_time: 0.1, disable_jsonable_encoder: false }));
    const serverEnv = { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' };
    const json = await runInProcess(['diff', 'X', 'Equity', '--parse-amounts', '-f', 'json', '--columns', 'change,amount_change'], { env: serverEnv });
    expect(json).toMatchObject({ code: 0, stdout: '[\n  {"change":"changed","amount_change":1e-12}\n]\n' });
    const table = await runInProcess(['diff', 'X', 'Equity', '--parse-amounts', '-f', 'table', '--columns', 'now'], { env: { ...serverEnv, NO_COLOR: '1' } });
    expect(table.stdout).toContain('$0.000000000002 (+0.000000000001 USD)');
  });
});

// Issue 36, point 2: diff says where its answer comes from, and is never silently stale.
describe('where mkt diff answers from', () => {
  const terminal = { isTTY: true, columns: 100 };
  const syncedLine = (mirror: string) => `from the mirror ${mirror}, synced \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z`;

  it('says so on a terminal: the mirror while the service has nothing newer, then the service once it has; --offline sends nothing, --online skips the mirror', async () => {
    const { mirror, counted, relayed } = await syncedMirror();
    const synced = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json'], { env: relayed });

    counted.requests.length = 0;
    const fresh = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json'], { env: relayed, stderr: terminal });
    expect(fresh).toMatchObject({ code: 0, stdout: synced.stdout });
    expect(fresh.stderr).toMatch(new RegExp(`^${syncedLine(mirror)}\\nBOX Option: `));
    expect(counted.requests.map((request) => request.url)).toEqual([AVAILABLE_FILTERS_PATH, newestOfGroup('BOX', 'Option')]);

    // The service publishes a newer version: diff answers from it, and says why.
    await addVersion('BOX', 'Option', 2);
    const online = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json'], { env: env() });
    expect(online.stdout).not.toBe(synced.stdout);
    counted.requests.length = 0;
    const stale = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json'], { env: relayed, stderr: terminal });
    expect(stale).toMatchObject({ code: 0, stdout: online.stdout });
    expect(stale.stderr).toMatch(new RegExp(`^from the service: the mirror ${mirror}, synced \\S+Z, is behind it on BOX Option\\nBOX Option: `));
    expect(counted.requests[1]?.url).toBe(newestOfGroup('BOX', 'Option'));
    expect(counted.requests.length).toBeGreaterThan(1);

    // --offline: the mirror's answer, nothing sent, and a line that says it may be behind.
    counted.requests.length = 0;
    const offline = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json', '--offline'], { env: relayed, stderr: terminal });
    expect(offline).toMatchObject({ code: 0, stdout: synced.stdout });
    expect(offline.stderr).toMatch(new RegExp(`^${syncedLine(mirror)}; the service was not asked \\(--offline\\): it may hold a newer version\\nBOX Option: `));
    expect(counted.requests).toHaveLength(0);

    // --online: the service alone, with no request to learn whether the mirror would do.
    counted.requests.length = 0;
    const skipped = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json', '--online'], { env: relayed, stderr: terminal });
    expect(skipped).toMatchObject({ code: 0, stdout: online.stdout });
    expect(skipped.stderr).toMatch(/^from the service\nBOX Option: /);
    expect(counted.requests.map((request) => request.url)).not.toContain(newestOfGroup('BOX', 'Option'));

    // With --verbose the line is in the log; off a terminal without it, only the summary is said.
    const verbose = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json', '--offline', '--verbose'], { env: relayed });
    expect(verbose.stderr).toMatch(new RegExp(`^${syncedLine(mirror)}; the service was not asked`, 'm'));
    const piped = await runInProcess(['diff', 'BOX', 'Option', '-f', 'json', '--offline'], { env: relayed });
    expect(piped.stderr).toMatch(/^BOX Option: [^\n]+\n$/);
  });

  it('--offline without a mirror that holds the group is an error, and sends nothing', async () => {
    const { counted, narrow } = await syncedMirror();
    const none = join(tempDir('mkt-diff-'), 'none.duckdb');
    const missing = await runInProcess(['diff', 'NYSE', 'Equity', '--offline'], { env: env({ MKT_BASE_URL: counted.url, MKT_MIRROR: none }) });
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr.split('\n')[0]).toBe(`mkt: no mirror at ${none}`);
    counted.requests.length = 0;
    const outside = await runInProcess(['diff', 'NYSE', 'Equity', '--offline'], { env: env({ MKT_BASE_URL: counted.url, MKT_MIRROR: narrow }) });
    expect(outside).toMatchObject({ code: 2, stdout: '' });
    expect(outside.stderr.split('\n')[0]).toBe('mkt: the mirror cannot answer this: the mirror holds no --exchange-name NYSE, only BOX');
    expect(counted.requests).toHaveLength(0);
  });

  describe('with a mirror that holds the group', () => {
    /** The sandbox, through a server that fails as a case says once the case sets `failure`. */
    let server: Awaited<ReturnType<typeof startRecordingServer>>;
    let failure: number | 'closed' | undefined;
    /** One sync for every case: what each case shows is the diff after it, which a copy of the mirror shows as well. */
    let synced: string;
    beforeAll(async () => {
      await addVersion('NASDAQ_PHLX', 'Option', 1);
      server = await startRecordingServer((request, response) => {
        // 'closed' closes the server instead, and is never answered.
        if (failure !== undefined) return sendJson(response, failure as number, { detail: 'no' });
        fetch(`${sandbox.current.url}${request.url}`, { headers: { 'x-service-api-access-key': sandbox.current.keys.api_key } })
          .then(async (answer) => sendJson(response, answer.status, await answer.json()))
          .catch(() => response.destroy());
      });
      synced = join(tempDir('mkt-diff-'), 'm.duckdb');
      // The group's exchange alone: a mirror that holds the group, for a walk of a page or two rather than the whole sandbox.
      expect((await runInProcess(['sync', '--exchange-name', 'NASDAQ_PHLX'], { env: env({ MKT_BASE_URL: server.url, MKT_MIRROR: synced }) })).code).toBe(0);
      // Without a failure the cases' diff finds the change (10), from a copy of the mirror as each case reads: the same for every case.
      expect((await runInProcess(['diff', 'NASDAQ_PHLX', 'Option', '--exit-code', '-f', 'json'], { env: env({ MKT_BASE_URL: server.url, MKT_MIRROR: copyMirror(synced) }) })).code).toBe(10);
    });
    afterEach(() => {
      failure = undefined;
    });
    afterAll(() => server.close());

    // 'closed' is the last case: no case after it could reach the server.
    it.each([
      ['a rejected key', 401, 3, 'mkt: the service rejected the API key (401)'],
      // The first request, for the fee type's spelling, meets it.
      ['an unlicensed exchange', 403, 3, 'mkt: your key is not licensed for the available filters (403)'],
      ['a server failure', 500, 1, undefined],
      ['a network failure', 'closed', 1, undefined],
    ] as const)('%s exits as anywhere else with --exit-code too, never 10', async (_case, failing, code, message) => {
      const serverEnv = env({ MKT_BASE_URL: server.url, MKT_MIRROR: copyMirror(synced) });
      failure = failing;
      if (failing === 'closed') await server.close();
      const run = await runInProcess(['diff', 'NASDAQ_PHLX', 'Option', '--exit-code', '-f', 'json', '--retries', '0'], { env: serverEnv });
      expect(run).toMatchObject({ code, stdout: '' });
      if (message) expect(run.stderr.split('\n')[0]).toBe(message);
    });
  });
});

// Issue 36, point 2: --columns names the fields of diff's output, whatever the data.
describe('mkt diff --columns', () => {
  const record = (id: string, version: string, scraped: string, charge: string, amount: string) =>
    Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, ({
      id, version_id: version, scraped_time: scraped, created_on: scraped.slice(0, 26), exchange_name: 'X', fee_type: 'Equity', fee_category: 'Participant Fee', fee_charge_type: charge, fee_amount: amount,
    } as Record<string, string>)[name] ?? null]));
  const older = '2024-01-01T00:00:00.000000+00:00';
  const newer = '2024-01-02T00:00:00.000000+00:00';
  const serving = async (data: object[]) =>
    servers((_request, response) =>
      sendJson(response, 200, { success: true, message: '', data, total_records: data.length, page_size: 100, total_pages: 1, current_page: 0, query_time: 0.1, disable_jsonable_encoder: false }));

  it.each([
    ['an addition', [record('c', 'v2', newer, 'Add', '$2'), record('b', 'v2', newer, 'Keep', '$1'), record('a', 'v1', older, 'Keep', '$1')], 'change,before.fee_amount,after.fee_amount',
      '[\n  {"change":"added","before":null,"after":{"fee_amount":"$2"}}\n]\n'],
    ['a removal', [record('b', 'v2', newer, 'Keep', '$1'), record('a', 'v1', older, 'Keep', '$1'), record('c', 'v1', older, 'Gone', '$3')], 'change,after.fee_amount,before.fee_amount,fields',
      '[\n  {"change":"removed","after":null,"before":{"fee_amount":"$3"},"fields":[]}\n]\n'],
  ])('takes before.<field> and after.<field> when the first difference is %s', async (_case, data, columns, stdout) => {
    const server = await serving(data);
    const run = await runInProcess(['diff', 'X', 'Equity', '-f', 'json', '--columns', columns], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' } });
    expect(run).toMatchObject({ code: 0, stdout });
  });

  it.each([
    [['-f', 'json', '--columns', 'change,befor.fee_amount'], 'mkt: unknown column "befor.fee_amount" in --columns; did you mean before.fee_amount?'],
    [['-f', 'ndjson', '--columns', 'amount_change'], 'mkt: unknown column "amount_change" in --columns'],
    [['-f', 'json', '--columns', 'before.fee_amount_value'], 'mkt: unknown column "before.fee_amount_value" in --columns'],
    [['-f', 'csv', '--columns', 'change,nope'], 'mkt: unknown column "nope" in --columns; did you mean now?'],
    [['-f', 'table', '--columns', 'fields'], 'mkt: unknown column "fields" in --columns; did you mean field?'],
  ])('%j: exit 2 before any request', async (args, message) => {
    const server = await serving([]);
    const run = await runInProcess(['diff', 'X', 'Equity', ...args], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' } });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.split('\n')[0]).toBe(message);
    expect(server.requests).toHaveLength(0);
  });

  it('takes amount_change and the parsed amounts with --parse-amounts', async () => {
    const server = await serving([record('b', 'v2', newer, 'Keep', '$2'), record('a', 'v1', older, 'Keep', '$1')]);
    const run = await runInProcess(['diff', 'X', 'Equity', '--parse-amounts', '-f', 'ndjson', '--columns', 'amount_change,after.fee_amount_value,before.fee_amount_unit'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' } });
    expect(run).toMatchObject({ code: 0, stdout: '{"amount_change":1,"after":{"fee_amount_value":2},"before":{"fee_amount_unit":"USD"}}\n' });
  });
});
