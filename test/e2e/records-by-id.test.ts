import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import type { FeeScheduleResult2026 } from '../../src/api/types.js';
import { emptyResultsPage, type RecordedRequest, type Responder, sendJson, startRecordingServer, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 38, points 2 and 3: the citation flags, a record and a version by id, and the mirror where the service has neither.
const servers = useRecordingServers();
const KEY = 'test-key-0123456789abcdef';

/** A 2026 record (shared/service-2026.md), in its key order. */
function record2026(id: string, extra: Partial<FeeScheduleResult2026> = {}): FeeScheduleResult2026 {
  return {
    record_id: id, exchange_name: 'nyse', scraped_time: '2026-02-26T00:00:50.839337Z', version_id: 'v-1', fee_type: 'option',
    source_document: null, source_link: null, page_number: null, fee_category: 'fees_and_rebates', fee_charge_type: 'Per contract',
    fee_amount: '$0.50', fee_action: 'make', fee_action_details: null, fee_basis: null, fee_participant: 'customer',
    fee_participant_details: null, fee_monthly_volume: null, fee_monthly_volume_criteria: null, fee_symbol_classification: 'all',
    fee_symbol_type: 'both', fee_trade_type: null, fee_symbol: null, fee_excluded_symbols: null, fee_conditions: null,
    fee_exclusions: null, fee_notes: null, fee_extra_info: null, relationships: null, ...extra,
  };
}

/** A record of the interface document, every field there. */
function record(id: string, versionId: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    id, exchange_name: 'NYSE', fee_type: 'Option', fee_category: 'Fee And Rebates', fee_charge_type: 'Per contract', fee_amount: '$0.50',
    fee_action: 'Make', fee_participant: 'Customer', fee_symbol_classification: 'All', fee_symbol_type: 'Both', version_id: versionId,
    scraped_time: '2025-06-25T23:06:49.121168+00:00', created_on: `2025-06-25T23:12:59.54625${id.slice(-1)}`,
  };
  return Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, fields[name] ?? null]));
}

const NOT_FOUND_2026 = (message: string) => ({ error: { code: 'NOT_FOUND', message }, meta: { query_time_ms: 1 } });

/** The 2026 envelope of a page of `data`, out of `total` records at `size` a page. */
const page2026 = (data: unknown[], total: number, size: number, page: number) => ({
  data,
  meta: { record_count: total, total_pages: Math.ceil(total / size), current_page: page, page_size: size, query_time_ms: 3 },
});

const pathOf = (request: RecordedRequest) => new URL(request.url, 'http://x').pathname;
const queryOf = (request: RecordedRequest) => new URL(request.url, 'http://x').searchParams;

/** How a service of the first shape answers: `records` on one results page; a generic 404 for any other path, as FastAPI answers. */
const firstShape = (records: Record<string, unknown>[]): Responder => (request, response) => {
  if (pathOf(request) !== '/api/v1/fee-schedule-results') return sendJson(response, 404, { detail: 'Not Found' });
  sendJson(response, 200, { ...emptyResultsPage(100), data: records, total_records: records.length, total_pages: 1 });
};
const firstShapeService = (records: Record<string, unknown>[]) => servers(firstShape(records));

const env = (url: string, extra: Record<string, string> = {}) => ({ env: { MKT_BASE_URL: url, MKT_API_KEY: KEY, ...extra } });

/** Records of two versions, v-1's two apart, that a service of the first shape holds. */
const HELD = [record('r-1', 'v-1'), record('r-2', 'v-2'), record('r-3', 'v-1')];
/**
 * That service, for the whole file, and a mirror of it synced once: the tests of a record and of
 * a version from the mirror read it, and none writes it.
 */
const held = { server: undefined as unknown as Awaited<ReturnType<typeof startRecordingServer>>, mirror: '', host: '' };
beforeAll(async () => {
  held.server = await startRecordingServer(firstShape(HELD));
  held.mirror = join(tempDir('mkt-held-'), 'held.duckdb');
  held.host = new URL(held.server.url).host;
  expect((await runInProcess(['sync', '--quiet'], env(held.server.url, { MKT_MIRROR: held.mirror }))).code).toBe(0);
});
afterAll(() => held.server.close());

describe('the citation flags', () => {
  it('results sends include_source, include_footnotes and include_definitions as true, only when given', async () => {
    const server = await servers((_request, response) => sendJson(response, 200, emptyResultsPage()));
    expect((await runInProcess(['results', '--include-source', '--include-definitions'], env(server.url))).code).toBe(0);
    expect((await runInProcess(['results', '--include-footnotes'], env(server.url))).code).toBe(0);
    expect((await runInProcess(['results'], env(server.url))).code).toBe(0);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/fee-schedule-results?include_source=true&include_definitions=true&page_number=0',
      '/api/v1/fee-schedule-results?include_footnotes=true&page_number=0',
      '/api/v1/fee-schedule-results?page_number=0',
    ]);
  });

  it('sync asks for them on every page, and a later sync of that mirror without them is refused', async () => {
    const server = await firstShapeService([record('r-1', 'v-1')]);
    const mirror = join(tempDir('mkt-cited-'), 'cited.duckdb');
    const first = await runInProcess(['sync', '--quiet', '--include-source', '--include-footnotes'], env(server.url, { MKT_MIRROR: mirror }));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) {
      expect([queryOf(request).get('include_source'), queryOf(request).get('include_footnotes'), queryOf(request).has('include_definitions')]).toEqual(['true', 'true', false]);
    }
    const again = await runInProcess(['sync', '--quiet'], env(server.url, { MKT_MIRROR: mirror }));
    expect(again.stderr).toBe(
      'mkt: the mirror was synced with --include-source --include-footnotes, and this sync names no filters\n'
        + 'A mirror answers one set of filters from one service: name another with --mirror, or rebuild this one with --full-refresh.\n',
    );
    expect(again.code).toBe(2);
    const offline = await runInProcess(['results', '--offline', '--include-definitions'], env(server.url, { MKT_MIRROR: mirror }));
    expect(offline.stderr).toBe(
      'mkt: the mirror cannot answer this: the mirror was synced without --include-definitions\n'
        + `${mirror} was synced with --include-source --include-footnotes; drop --offline to ask the service.\n`,
    );
    expect(offline.code).toBe(2);
  });
});

/** `mkt results get r-1` at a terminal 80 columns wide: the record of the 2026 service below, a field a line. */
const RECORD_VIEW = [
  '┌─────────────────────────────┬─────────────────────────────────────────────┐\n',
  '│ record_id                   │ r-1                                         │\n',
  '│ exchange_name               │ nyse                                        │\n',
  '│ scraped_time                │ 2026-02-26T00:00:50.839337Z                 │\n',
  '│ version_id                  │ v-1                                         │\n',
  '│ fee_type                    │ option                                      │\n',
  '│ source_document             │ NYSE Price List.pdf                         │\n',
  '│ source_link                 │ https://cdn.example.com/nyse/price-list.pdf │\n',
  '│ page_number                 │ 17                                          │\n',
  '│ fee_category                │ fees_and_rebates                            │\n',
  '│ fee_charge_type             │ Per contract                                │\n',
  '│ fee_amount                  │ $0.50                                       │\n',
  '│ fee_action                  │ make                                        │\n',
  '│ fee_action_details          │                                             │\n',
  '│ fee_basis                   │                                             │\n',
  '│ fee_participant             │ customer                                    │\n',
  '│ fee_participant_details     │                                             │\n',
  '│ fee_monthly_volume          │                                             │\n',
  '│ fee_monthly_volume_criteria │                                             │\n',
  '│ fee_symbol_classification   │ all                                         │\n',
  '│ fee_symbol_type             │ both                                        │\n',
  '│ fee_trade_type              │                                             │\n',
  '│ fee_symbol                  │                                             │\n',
  '│ fee_excluded_symbols        │                                             │\n',
  '│ fee_conditions              │                                             │\n',
  '│ fee_exclusions              │                                             │\n',
  '│ fee_notes                   │                                             │\n',
  '│ fee_extra_info              │                                             │\n',
  '│ relationships               │ footnote: Rebates are paid monthly.         │\n',
  '│                             │ ADV: average daily volume                   │\n',
  '└─────────────────────────────┴─────────────────────────────────────────────┘\n',
].join('');

describe('mkt results get', () => {
  const cited = record2026('r-1', {
    source_document: 'NYSE Price List.pdf',
    source_link: 'https://cdn.example.com/nyse/price-list.pdf',
    page_number: 17,
    relationships: { footnotes: [{ text: 'Rebates are paid monthly.' }], definitions: [{ term: 'ADV', text: 'average daily volume' }] },
  });

  /** A 2026 service holding `cited` alone. */
  const service2026 = () =>
    servers((request, response) =>
      pathOf(request) === '/api/v1/fee-schedule-results/r-1'
        ? sendJson(response, 200, { data: cited, meta: { record_count: 1, query_time_ms: 2 } })
        : sendJson(response, 404, NOT_FOUND_2026('Fee schedule result not found.')));

  it('asks the service for the record with the include flags, and writes it as sent', async () => {
    const server = await service2026();
    const run = await runInProcess(['results', 'get', 'r-1', '--include-source', '--include-footnotes', '-f', 'json'], env(server.url));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(cited);
    expect(Object.keys(JSON.parse(run.stdout) as object)).toEqual(Object.keys(cited));
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/fee-schedule-results/r-1?include_source=true&include_footnotes=true']);
    expect(server.requests[0]?.headers['x-service-api-access-key']).toBe(KEY);
  });

  it('shows the record a field a line at a terminal, its footnotes and definitions one a line', async () => {
    const server = await service2026();
    const run = await runInProcess(['results', 'get', 'r-1', '--no-color'], { ...env(server.url), stdout: { isTTY: true, columns: 80 } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(RECORD_VIEW);
  });

  it("exits 4 with the service's NOT_FOUND for the id", async () => {
    const server = await service2026();
    const run = await runInProcess(['results', 'get', 'r-2'], env(server.url));
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('mkt: no record r-2 (404)\n');
    expect(run.code).toBe(4);
  });

  it('from a service without the endpoint and no mirror: one line, exit 4', async () => {
    const server = await firstShapeService([]);
    const mirror = join(tempDir('mkt-none-'), 'none.duckdb');
    const run = await runInProcess(['results', 'get', 'r-1'], env(server.url, { MKT_MIRROR: mirror }));
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`mkt: ${new URL(server.url).host} does not offer GET /api/v1/fee-schedule-results/{record_id}, and there is no mirror at ${mirror} to ask for record r-1\n`);
    expect(run.code).toBe(4);
  });

  it('from a service without the endpoint: the record the mirror holds, said in one line; one it does not hold exits 4', async () => {
    const { server, mirror, host } = held;
    const got = await runInProcess(['results', 'get', 'r-2', '-f', 'json'], env(server.url, { MKT_MIRROR: mirror }));
    expect(got.stderr).toBe(`warning: ${host} does not offer GET /api/v1/fee-schedule-results/{record_id}: record r-2 from the mirror ${mirror}\n`);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual(HELD[1]);

    const missing = await runInProcess(['results', 'get', 'r-9'], env(server.url, { MKT_MIRROR: mirror }));
    expect(missing.stderr).toBe(`mkt: ${host} does not offer GET /api/v1/fee-schedule-results/{record_id}, and the mirror ${mirror} holds no record r-9\n`);
    expect(missing.code).toBe(4);
  });

  it('refuses the flags of results that choose records, before sending anything', async () => {
    const server = await service2026();
    const run = await runInProcess(['results', 'get', 'r-1', '--include-source', '--all'], env(server.url));
    expect(run.stderr).toBe('mkt: results get reads one record by its id: leave out --all\n');
    expect(run.code).toBe(2);
    expect(server.requests).toEqual([]);
  });

  it('refuses an id that is not one word before sending anything', async () => {
    const server = await service2026();
    const run = await runInProcess(['results', 'get', '..'], env(server.url));
    expect(run.stderr).toBe('mkt: <id> must be a record\'s id, not ".."\n');
    expect(run.code).toBe(2);
    expect(server.requests).toEqual([]);
  });
});

describe('mkt version', () => {
  const version = Array.from({ length: 5 }, (_, index) => record2026(`r-${index}`, { version_id: 'v-7' }));

  /** A 2026 service holding version v-7, `size` records a page whatever is asked. */
  const service2026 = (size: number) =>
    servers((request, response) => {
      if (pathOf(request) !== '/api/v1/fee-schedule-results/versions/v-7') return sendJson(response, 404, NOT_FOUND_2026('Version not found.'));
      const page = Number(queryOf(request).get('page_number') ?? 0);
      sendJson(response, 200, page2026(version.slice(page * size, page * size + size), version.length, size, page));
    });

  it('walks every page of the version with the include flags, in NDJSON as sent', async () => {
    const server = await service2026(2);
    const run = await runInProcess(['version', 'v-7', '--include-definitions', '-f', 'ndjson'], env(server.url));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(version.map((item) => `${JSON.stringify(item)}\n`).join(''));
    expect(server.requests.map((request) => request.url)).toEqual([0, 1, 2].map((page) => `/api/v1/fee-schedule-results/versions/v-7?page_size=100&include_definitions=true&page_number=${page}`));
  });

  it("exits 4 with the service's NOT_FOUND for the version", async () => {
    const server = await service2026(2);
    const run = await runInProcess(['version', 'v-8'], env(server.url));
    expect(run.stderr).toBe('mkt: no version v-8 (404)\n');
    expect(run.code).toBe(4);
  });

  it('from a service without the endpoint: the records of the version the mirror holds, said in one line', async () => {
    const { server, mirror, host } = held;
    const got = await runInProcess(['version', 'v-1', '-f', 'ndjson'], env(server.url, { MKT_MIRROR: mirror }));
    expect(got.stderr).toBe(`warning: ${host} does not offer GET /api/v1/fee-schedule-results/versions/{version_id}: version v-1 from the mirror ${mirror}\n`);
    expect(got.code).toBe(0);
    expect(got.stdout).toBe(`${JSON.stringify(HELD[0])}\n${JSON.stringify(HELD[2])}\n`);

    const missing = await runInProcess(['version', 'v-9'], env(server.url, { MKT_MIRROR: mirror }));
    expect(missing.stderr).toBe(`mkt: ${host} does not offer GET /api/v1/fee-schedule-results/versions/{version_id}, and the mirror ${mirror} holds no version v-9\n`);
    expect(missing.code).toBe(4);
  });
});

describe('mkt diff --from/--to by version id', () => {
  /** Two versions of nyse option: r-2 changed its amount, r-3 was added, both cited on their pages. */
  const older = [record2026('a-1', { version_id: 'v-1', fee_charge_type: 'Routing' }), record2026('a-2', { version_id: 'v-1' })];
  const cite = (page: number) => ({ source_document: 'NYSE Price List.pdf', source_link: 'https://cdn.example.com/nyse/2026-03.pdf', page_number: page });
  const newer = [
    record2026('b-1', { version_id: 'v-2', fee_charge_type: 'Routing', scraped_time: '2026-03-01T00:00:00.000000Z', ...cite(3) }),
    record2026('b-2', { version_id: 'v-2', fee_amount: '$0.55', scraped_time: '2026-03-01T00:00:00.000000Z', ...cite(12) }),
    record2026('b-3', { version_id: 'v-2', fee_charge_type: 'Port', fee_amount: '$100', scraped_time: '2026-03-01T00:00:00.000000Z', ...cite(17) }),
  ];
  const versions: Record<string, FeeScheduleResult2026[]> = { 'v-1': older, 'v-2': newer };

  it('reads each version from the version endpoint with its sources, and says where the newer one is published', async () => {
    const server = await servers((request, response) => {
      const id = /^\/api\/v1\/fee-schedule-results\/versions\/(.+)$/.exec(pathOf(request))?.[1] ?? '';
      const records = versions[id];
      if (!records) return sendJson(response, 404, NOT_FOUND_2026('Version not found.'));
      sendJson(response, 200, page2026(records, records.length, 100, 0));
    });
    const run = await runInProcess(['diff', 'nyse', 'Option', '--from', 'v-1', '--to', 'v-2', '-f', 'ndjson'], env(server.url));
    expect(run.code).toBe(0);
    // First the fee type's spelling (diff sends it as the service spells it), then the two versions.
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/fee-schedule-results/filters',
      ...['v-2', 'v-1'].map((id) => `/api/v1/fee-schedule-results/versions/${id}?page_size=100&include_source=true&page_number=0`),
    ]);
    expect(run.stdout).toBe(
      `${JSON.stringify({ change: 'changed', before: older[1], after: newer[1], fields: ['fee_amount'] })}\n`
        + `${JSON.stringify({ change: 'added', before: null, after: newer[2], fields: [] })}\n`,
    );
    expect(run.stderr).toBe(
      'nyse Option: 1 changed, 1 added, 0 removed · v-1 (2026-02-26) → v-2 (2026-03-01)\n'
        + 'source of v-2: NYSE Price List.pdf, https://cdn.example.com/nyse/2026-03.pdf, pages 12, 17\n',
    );
  });

  it('refuses a version of another fee schedule, exit 4', async () => {
    const server = await servers((_request, response) => sendJson(response, 200, page2026(older, older.length, 100, 0)));
    const run = await runInProcess(['diff', 'nyse', 'Equity', '--from', 'v-1', '--to', 'v-2'], env(server.url));
    expect(run.stderr).toBe('mkt: nyse Equity has no version v-2: it is a version of nyse option\n');
    expect(run.code).toBe(4);
  });

  it('from a service without the endpoint: the group\'s results, as before', async () => {
    const records = [record('r-1', 'v-1'), { ...record('r-2', 'v-2'), fee_amount: '$0.55', scraped_time: '2025-07-01T00:00:00.000000+00:00' }];
    const server = await firstShapeService(records);
    const run = await runInProcess(['diff', 'NYSE', 'Option', '--from', 'v-1', '--to', 'v-2', '-f', 'ndjson'], env(server.url, { MKT_MIRROR: join(tempDir('mkt-none-'), 'none.duckdb') }));
    expect(run.stderr).toBe('NYSE Option: 1 changed, 0 added, 0 removed · v-1 (2025-06-25) → v-2 (2025-07-01)\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify({ change: 'changed', before: records[0], after: records[1], fields: ['fee_amount'] })}\n`);
    expect(server.requests.map((request) => pathOf(request))).toEqual(['/api/v1/fee-schedule-results/filters', '/api/v1/fee-schedule-results/versions/v-2', '/api/v1/fee-schedule-results']);
    expect(queryOf(server.requests[2]!).get('include_source')).toBe('true');
  });
});
