import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { type RecordedRequest, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import type { ServerResponse } from 'node:http';
import { writeExchangeList } from '../../src/config/exchange-cache.js';
import { tempDir } from '../helpers/temp-dir.js';
import { join } from 'node:path';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';

// Issue 38, points 1 and 5: mkt reads the 2026 edition's answers (shared/service-2026.md) as
// well as the interface document's, from the answer itself (docs/service-shapes.md).
const KEY = 'test-key-0123456789abcdef';
const startServer = useRecordingServers();

/** Records of the 2026 edition: record_id, no created_on, snake_case values. */
const records2026 = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => ({ record_id: `r${from + index}`, exchange_name: 'nasdaq_phlx', fee_type: 'option', fee_category: 'fees_and_rebates' }));

/** A 2026 results page: `{data, meta}`. */
const page2026 = (data: unknown[], meta: { record_count: number; page_size: number; current_page?: number }) => ({
  data,
  meta: { current_page: 0, total_pages: Math.ceil(meta.record_count / meta.page_size), query_time_ms: 4, ...meta },
});

/** The 2026 error body. */
const error2026 = (code: string, message: string, details?: unknown) => ({ error: { code, message, ...(details === undefined ? {} : { details }) }, meta: { query_time_ms: 1 } });

async function serve(respond: (request: RecordedRequest, response: ServerResponse) => void) {
  const server = await startServer(respond);
  return { ...server, env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } };
}

describe('the 2026 results envelope', () => {
  it('a page is printed with its records exactly as sent', async () => {
    const data = records2026(1);
    const server = await serve((_request, response) => sendJson(response, 200, page2026(data, { record_count: 1, page_size: 20 })));
    const run = await runInProcess(['results', '-f', 'ndjson'], { env: server.env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(data.map((record) => `${JSON.stringify(record)}\n`).join(''));
  });

  it('a meta whose pages do not add up is a malformed answer naming meta.total_pages', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, { data: [], meta: { record_count: 5, total_pages: 9, current_page: 0, page_size: 2 } }));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: ${new URL(server.url).host} sent a malformed answer: meta.total_pages is 9, but 5 records at 2 a page make 3\n`,
    });
  });
});

/** A fresh cache directory whose kept exchange list (`mkt exchanges`) holds `ids`. */
function cacheWith(ids: readonly string[]): string {
  const dir = tempDir('mkt-cache-');
  writeExchangeList(dir, 'default', { source: 'service', fetchedAt: '2026-02-26T00:00:00.000Z', exchanges: ids.map((id) => ({ id, name: null, records: null })) });
  return dir;
}

const ENV_KEY_HINT = 'MKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.\n';

describe('the 2026 error body, {"error": {code, message, details}, "meta"}', () => {
  it('UNAUTHORIZED is exit 3, with the service\'s code and message', async () => {
    const server = await serve((_request, response) => sendJson(response, 401, error2026('UNAUTHORIZED', 'Missing or invalid API key.')));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({ code: 3, stdout: '', stderr: `mkt: the service rejected the API key (401): UNAUTHORIZED: Missing or invalid API key.\n${ENV_KEY_HINT}` });
  });

  it('on an exchange endpoint sent a bearer token, the hint names the setting that sends the 2026 header', async () => {
    const server = await serve((_request, response) => sendJson(response, 401, error2026('UNAUTHORIZED', 'Missing or invalid API key.')));
    const run = await runInProcess(['fees', 'nyse'], { env: server.env });
    expect(run).toMatchObject({
      code: 3,
      stderr:
        'mkt: the service rejected the API key (401): UNAUTHORIZED: Missing or invalid API key.\n'
        + 'The 2026 edition takes the key in one header on every endpoint: mkt config set exchanges_auth header:x-service-api-access-key\n',
    });
  });

  it('FORBIDDEN is exit 3, the message cleaned of the key and control characters', async () => {
    const server = await serve((_request, response) => sendJson(response, 403, error2026('FORBIDDEN', `You do not have access to this exchange's data.\u001b[2J ${KEY}`)));
    const run = await runInProcess(['fees', 'nyse'], { env: server.env });
    expect(run).toMatchObject({
      code: 3,
      stderr:
        "mkt: your key is not licensed for nyse (403): FORBIDDEN: You do not have access to this exchange's data.\\x1b[2J ***\n"
        + 'Ask the data operator to add it to your licence, or use another profile with --profile.\n',
    });
  });

  it('VALIDATION_ERROR is exit 2, with its details, the first five of them', async () => {
    const details = [
      { loc: ['query', 'fee_category'], msg: "Input should be 'fees_and_rebates' or 'general_provisions'" },
      { field: 'page_size', message: 'must be at most 100' },
      'order_by: unknown',
      { code: 7 },
      'five',
      'six',
      'seven',
    ];
    const server = await serve((_request, response) => sendJson(response, 422, error2026('VALIDATION_ERROR', 'Invalid query parameters.', details)));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        "mkt: the service rejected the request (422): VALIDATION_ERROR: Invalid query parameters. (fee_category: Input should be 'fees_and_rebates' or 'general_provisions'; "
        + 'page_size: must be at most 100; order_by: unknown; {"code":7}; five; and 2 more)\n',
    });
  });

  it('NOT_FOUND is exit 4 from any endpoint, where a 404 without it is the wrong base URL', async () => {
    const server = await serve((_request, response) => sendJson(response, 404, error2026('NOT_FOUND', 'Fee schedule result not found.')));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({ code: 4, stdout: '', stderr: 'mkt: the service found nothing at /api/v1/fee-schedule-results (404): NOT_FOUND: Fee schedule result not found.\n' });
  });

  it('NOT_FOUND from an exchange endpoint is the unknown exchange, exit 4, though its message names none', async () => {
    const server = await serve((_request, response) => sendJson(response, 404, error2026('NOT_FOUND', 'Exchange not found.')));
    const run = await runInProcess(['rules', 'nasdaq_phl'], { env: { ...server.env, MKT_CACHE_DIR: cacheWith(['nasdaq', 'nasdaq_phlx']) } });
    expect(run).toMatchObject({
      code: 4,
      stderr: 'mkt: unknown exchange nasdaq_phl (404)\nDid you mean nasdaq_phlx? `mkt exchanges` lists the exchanges your key reaches.\n',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a generic 404 from an exchange endpoint of a service whose exchange list answers: it does not offer that endpoint, exit 4', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/api/v1/exchanges/') sendJson(response, 200, { data: [{ name: 'nyse', display_name: 'NYSE', fee_types: ['equity'], record_count: 3 }], meta: { record_count: 1, query_time_ms: 1 } });
      else sendJson(response, 404, { detail: 'Not Found' });
    });
    const run = await runInProcess(['order-types', 'nyse'], { env: server.env });
    expect(run).toMatchObject({
      code: 4,
      stdout: '',
      stderr:
        'mkt: the service does not offer order-types (GET /api/v1/exchanges/nyse/order-types answered 404)\n'
        + 'Its 2026 reference has no such endpoint: `mkt results --exchange-name EXCHANGE` lists the fees it has.\n',
    });
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/exchanges/nyse/order-types', '/api/v1/exchanges/']);
  });
});

describe('exchange identifiers: the kept list says how they are spelt', () => {
  const unknownExchange = () => serve((_request, response) => sendJson(response, 404, error2026('NOT_FOUND', 'Exchange not found.')));

  it.each([
    ['lower-case ids', 'NYSE', ['nyse', 'nasdaq_phlx'], 'nyse'],
    ['upper-case ids', 'nyse', ['NYSE', 'CBOE'], 'NYSE'],
  ])('against a list of %s, %s gets "did you mean %s?" in one message', async (_kind, typed, ids, meant) => {
    const server = await unknownExchange();
    const run = await runInProcess(['fees', typed as string], { env: { ...server.env, MKT_CACHE_DIR: cacheWith(ids as string[]) } });
    expect(run).toMatchObject({
      code: 4,
      stderr: `mkt: unknown exchange ${typed} (404)\nDid you mean ${meant}? \`mkt exchanges\` lists the exchanges your key reaches.\n`,
    });
  });

  it('an exchange the list holds but the service does not know is not suggested back', async () => {
    const server = await unknownExchange();
    const run = await runInProcess(['fees', 'nyse'], { env: { ...server.env, MKT_CACHE_DIR: cacheWith(['nyse', 'nasdaq']) } });
    expect(run).toMatchObject({ code: 4, stderr: 'mkt: unknown exchange nyse (404)\nCheck the identifier: `mkt exchanges` lists the exchanges your key reaches.\n' });
  });

  it('without a list, no case is assumed', async () => {
    const server = await unknownExchange();
    const run = await runInProcess(['fees', 'NYSE'], { env: server.env });
    expect(run).toMatchObject({ code: 4, stderr: 'mkt: unknown exchange NYSE (404)\nCheck the identifier: `mkt exchanges` lists the exchanges your key reaches.\n' });
  });
});

describe('the key header per family of endpoints (exchanges_auth, results_auth)', () => {
  const feesPage = { fees: [] };

  it('by default, a bearer token on the exchange endpoints and the results header on results', async () => {
    const server = await serve((request, response) => sendJson(response, 200, request.url.startsWith('/api/v1/exchanges/') ? feesPage : page2026([], { record_count: 0, page_size: 20 })));
    await runInProcess(['fees', 'nyse'], { env: server.env });
    await runInProcess(['results'], { env: server.env });
    expect(server.requests.map((request) => [request.headers.authorization, request.headers['x-service-api-access-key']])).toEqual([
      [`Bearer ${KEY}`, undefined],
      [undefined, KEY],
    ]);
  });

  it('config set moves the key to the header named, and --verbose shows that header with the key redacted', async () => {
    const server = await serve((request, response) => sendJson(response, 200, request.url.startsWith('/api/v1/exchanges/') ? feesPage : page2026([], { record_count: 0, page_size: 20 })));
    const configDir = tempDir('mkt-config-');
    const env = { ...server.env, MKT_CONFIG_DIR: configDir };
    expect(await runInProcess(['config', 'set', 'exchanges_auth', 'header:X-Service-Api-Access-Key'], { env })).toMatchObject({ code: 0 });
    expect(await runInProcess(['config', 'set', 'results_auth', 'header:x-api-key'], { env })).toMatchObject({ code: 0 });
    expect((await runInProcess(['config', 'list'], { env })).stdout).toBe('exchanges_auth=header:x-service-api-access-key\nresults_auth=header:x-api-key\n');
    const fees = await runInProcess(['fees', 'nyse', '--verbose'], { env });
    const results = await runInProcess(['results', '--verbose'], { env });
    expect(server.requests.map((request) => [request.headers.authorization, request.headers['x-service-api-access-key'], request.headers['x-api-key']])).toEqual([
      [undefined, KEY, undefined],
      [undefined, undefined, KEY],
    ]);
    expect(fees.stderr).toContain('x-service-api-access-key: ***');
    expect(results.stderr).toContain('x-api-key: ***');
    expect(fees.stderr + results.stderr).not.toContain(KEY);
  });

  it('a header name that is not a token is refused, exit 2, nothing stored', async () => {
    const env = { MKT_CONFIG_DIR: tempDir('mkt-config-') };
    const run = await runInProcess(['config', 'set', 'results_auth', 'header:x key'], { env });
    expect(run).toMatchObject({
      code: 2,
      stderr: 'mkt: results_auth must be bearer or header:<name>, with a header name (an RFC 9110 token) the request does not set itself, not "header:x key"\n',
    });
    expect((await runInProcess(['config', 'list'], { env })).stdout).toBe('');
  });
});

describe('filter values in either spelling, sent in the service\'s', () => {
  /** The 2026 edition's "Get Available Filters". */
  const filters2026 = {
    data: {
      exchange_names: ['nyse', 'nasdaq_phlx'],
      fee_types: ['option', 'equity'],
      fee_categories: ['fees_and_rebates', 'general_provisions', 'legal_regulatory_fee'],
      fee_actions: ['make', 'take'],
      fee_participants: ['customer', 'broker_dealer'],
      fee_symbol_classifications: ['etf', 'equity_class', 'not_applicable'],
      fee_symbol_types: ['penny', 'non_penny', 'not_applicable'],
      fee_trade_types: [],
    },
    meta: { record_count: 2, query_time_ms: 2 },
  };
  const service2026 = () =>
    serve((request, response) => {
      if (request.url.startsWith('/api/v1/fee-schedule-results/filters')) sendJson(response, 200, filters2026);
      else sendJson(response, 200, page2026([], { record_count: 0, page_size: 20 }));
    });
  const queryOf = (url: string) => decodeURIComponent(new URL(url, 'http://x').search.replaceAll('+', ' '));

  it('learns the spelling from the filters operation once, keeps it for the profile, and sends it', async () => {
    const server = await service2026();
    const env = { ...server.env, MKT_CACHE_DIR: tempDir('mkt-cache-') };
    const first = await runInProcess(['results', '--fee-category', 'Fee And Rebates,general_provisions', '--fee-participant', 'Broker Dealer', '--fee-symbol-classification', 'Equity'], { env });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const second = await runInProcess(['results', '--fee-category', 'Legal Regulatory Fees'], { env });
    expect(second).toMatchObject({ code: 0, stderr: '' });
    const unfiltered = await runInProcess(['results', '--exchange-name', 'nyse'], { env });
    expect(unfiltered.code).toBe(0);
    expect(server.requests.map((request) => queryOf(request.url))).toEqual([
      '',
      '?fee_category=fees_and_rebates&fee_category=general_provisions&fee_participant=broker_dealer&fee_symbol_classification=equity_class&page_number=0',
      '?fee_category=legal_regulatory_fee&page_number=0',
      '?exchange_name=nyse&page_number=0',
    ]);
    expect(server.requests[0]?.url).toBe('/api/v1/fee-schedule-results/filters');
  });

  it('a value the service does not list is exit 2, naming the values in its spelling, and no results are asked for', async () => {
    const server = await service2026();
    const run = await runInProcess(['results', '--fee-category', 'general_provision_x'], { env: server.env });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mkt: --fee-category: unknown value "general_provision_x"; did you mean general_provisions?\n'
        + 'Allowed values: fees_and_rebates, general_provisions, legal_regulatory_fee, Market Data Fees, Participant Fee, Port Fees And Other Services.\n',
    });
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/fee-schedule-results/filters']);
  });

  it('mkt exchanges keeps the spelling from the same answer: then a filter value asks nothing more, and TAB offers it', async () => {
    const server = await service2026();
    const env = { ...server.env, MKT_CACHE_DIR: tempDir('mkt-cache-') };
    expect((await runInProcess(['exchanges', '-f', 'ndjson'], { env })).code).toBe(0);
    expect(await runInProcess(['results', '--fee-symbol-type', 'N/A'], { env })).toMatchObject({ code: 0, stderr: '' });
    expect(server.requests.map((request) => queryOf(request.url))).toEqual(['', '', '?fee_symbol_type=not_applicable&page_number=0']);
    expect((await runInProcess(['__fee_symbol_type'], { env })).stdout).toBe('penny\nnon_penny\nnot_applicable\nBoth\n');
    expect((await runInProcess(['__fee_category'], { env: { MKT_CACHE_DIR: tempDir('mkt-cache-') } })).stdout).toBe(
      'Fee And Rebates\nLegal Regulatory Fees\nMarket Data Fees\nParticipant Fee\nPort Fees And Other Services\n',
    );
  });

  it('kept spellings older than a week are asked for again', async () => {
    const server = await service2026();
    const env = { ...server.env, MKT_CACHE_DIR: tempDir('mkt-cache-') };
    const start = Date.parse('2026-02-26T00:00:00Z');
    await runInProcess(['results', '--fee-type', 'Option'], { env, now: () => start });
    await runInProcess(['results', '--fee-type', 'Option'], { env, now: () => start + 6 * 86_400_000 });
    await runInProcess(['results', '--fee-type', 'Option'], { env, now: () => start + 8 * 86_400_000 });
    expect(server.requests.map((request) => queryOf(request.url))).toEqual(['', '?fee_type=option&page_number=0', '?fee_type=option&page_number=0', '', '?fee_type=option&page_number=0']);
  });

  it('--offline asks nothing: it takes the kept spelling, else the table', async () => {
    const server = await service2026();
    const run = await runInProcess(['results', '--offline', '--fee-type', 'nonsense'], { env: { ...server.env, MKT_DATA_DIR: tempDir('mkt-data-') } });
    expect(run).toMatchObject({ code: 2, stderr: 'mkt: --fee-type: unknown value "nonsense"\nAllowed values: Option, Equity.\n' });
    expect(server.requests).toEqual([]);
  });
});

describe('the mirror compares filter values as enumKey does', () => {
  it('--offline --fee-symbol-classification Equity finds the records a service spelt equity_class', async () => {
    const record = (id: string, classification: string) =>
      Object.fromEntries(
        FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [
          name,
          ({ id, exchange_name: 'nyse', fee_type: 'option', fee_category: 'fees_and_rebates', fee_charge_type: 'c', fee_amount: '$1', fee_action: 'make', fee_participant: 'customer',
            version_id: 'v', scraped_time: '2026-02-26T00:00:50.839337+00:00', created_on: `2026-02-26T00:00:0${id}.000000`, fee_symbol_classification: classification } as Record<string, unknown>)[name]
            ?? (name === 'fee_notes' ? '' : null),
        ]),
      );
    const records = [record('1', 'equity_class'), record('2', 'etf')];
    const server = await serve((_request, response) =>
      sendJson(response, 200, { success: true, message: '', data: records, total_records: 2, page_size: 100, total_pages: 1, current_page: 0, query_time: 0.1, disable_jsonable_encoder: false }));
    const env = { ...server.env, MKT_MIRROR: join(tempDir('mkt-mirror-'), 'm.duckdb') };
    expect((await runInProcess(['sync'], { env })).code).toBe(0);
    const offline = await runInProcess(['results', '--offline', '--fee-symbol-classification', 'Equity', '-f', 'ndjson', '--columns', 'id,fee_symbol_classification'], { env });
    expect(offline).toMatchObject({ code: 0, stdout: '{"id":"1","fee_symbol_classification":"equity_class"}\n' });
  });
});
