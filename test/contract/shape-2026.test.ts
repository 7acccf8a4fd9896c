import { describe, expect, it } from 'vitest';
import { API_PREFIX, AVAILABLE_FILTERS_PATH, RESULTS_KEY_HEADER, RESULTS_PATH } from '../../src/api/paths.js';
import type { FeeScheduleResult, FeeScheduleResult2026 } from '../../src/api/types.js';
import { useSandbox } from '../helpers/sandbox.js';
import { addVersions, control, getAllResults, getResults, type Query } from './http.js';

/** The 2026 shape of the service (shared/service-2026.md), and the interface shape on the same seed. */
const SEED = 5;
const RECORDS = 400;
const sandbox = useSandbox({ seed: SEED, records: RECORDS, shape: '2026' });
const twin = useSandbox({ seed: SEED, records: RECORDS });

interface Page2026 {
  data: FeeScheduleResult2026[];
  meta: { record_count: number; total_pages: number; current_page: number; page_size: number; query_time_ms: number };
}

const EXCHANGES_PATH = `${API_PREFIX}/exchanges`;
const recordPath = (id: string) => `${RESULTS_PATH}/${encodeURIComponent(id)}`;
const versionPath = (id: string) => `${RESULTS_PATH}/versions/${encodeURIComponent(id)}`;

/** GET a path of the 2026 sandbox with the all-exchanges key in the one key header. */
function get<Body = Page2026>(path: string, query: Query = {}, key: string | null = sandbox.current.keys.api_key) {
  return getResults<Body>(sandbox.current, { path, query, key });
}

/** Every record of a 2026 results query, page after page. */
async function walk(query: Query = {}): Promise<FeeScheduleResult2026[]> {
  const records: FeeScheduleResult2026[] = [];
  for (let page = 0; ; page++) {
    const { status, body } = await get(RESULTS_PATH, { page_size: 100, ...query, page_number: page });
    expect(status).toBe(200);
    records.push(...body.data);
    if (page + 1 >= body.meta.total_pages) return records;
  }
}

/** How many records the results list holds now (a test above adds a version). */
async function liveRecords(): Promise<number> {
  return (await get(RESULTS_PATH, { page_size: 1 })).body.meta.record_count;
}

const error = (code: string, message: string) => ({ error: { code, message }, meta: { query_time_ms: expect.any(Number) } });
const SNAKE_CASE = /^[a-z0-9]+(_[a-z0-9]+)*$/;

describe('the 2026 shape: the results list', () => {
  it('answers {data, meta} with the paging facts in meta, in the edition’s order', async () => {
    const { status, body, text } = await get(RESULTS_PATH, { page_size: 7, page_number: 2 });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data', 'meta']);
    expect(Object.keys(body.meta)).toEqual(['record_count', 'total_pages', 'current_page', 'page_size', 'query_time_ms']);
    expect(body.meta).toMatchObject({ record_count: RECORDS, total_pages: Math.ceil(RECORDS / 7), current_page: 2, page_size: 7 });
    expect(Number.isInteger(body.meta.query_time_ms)).toBe(true);
    expect(body.data).toHaveLength(7);
    expect(text).not.toContain('created_on');
    expect(text).not.toContain('fee_reference');
  });

  it('serves the interface shape’s records, transformed: the same ids, values in snake_case, scraped_time with Z', async () => {
    const served = await walk();
    const interfaceRecords = new Map((await getAllResults(twin.current)).records.map((record) => [record.id, record]));
    expect(served).toHaveLength(interfaceRecords.size);
    for (const record of served) {
      const original = interfaceRecords.get(record.record_id) as FeeScheduleResult;
      expect(record).toMatchObject({
        exchange_name: original.exchange_name.toLowerCase(),
        version_id: original.version_id,
        fee_amount: original.fee_amount,
        fee_notes: original.fee_notes,
        source_document: null,
        source_link: null,
        page_number: null,
        relationships: null,
      });
      expect(record.scraped_time).toBe(original.scraped_time.replace('+00:00', 'Z'));
      // A line without a trade type: not_applicable in an equity schedule, null in an options one.
      if (original.fee_trade_type === null) expect(record.fee_trade_type).toBe(record.fee_type === 'equity' ? 'not_applicable' : null);
      for (const field of ['fee_type', 'fee_category', 'fee_action', 'fee_participant'] as const) expect(record[field]).toMatch(SNAKE_CASE);
      for (const field of ['fee_symbol_classification', 'fee_symbol_type', 'fee_trade_type'] as const) {
        if (record[field] !== null) expect(record[field]).toMatch(SNAKE_CASE);
      }
    }
    const categories = new Set(served.map((record) => record.fee_category));
    expect(categories).toContain('general_provisions');
    expect(categories).toContain('fees_and_rebates');
    expect(new Set(served.map((record) => record.fee_type))).toEqual(new Set(['option', 'equity']));
    expect(new Set(served.map((record) => record.fee_symbol_classification))).toContain('equity_class');
    expect(new Set(served.map((record) => record.fee_participant))).toContain('broker_dealer');
    expect(new Set(served.map((record) => record.fee_trade_type))).toEqual(
      new Set(['index_options', 'multiply_traded_options', 'simple_order', 'complex_order', 'not_applicable', null]),
    );
  });

  it('filters by the edition’s snake_case values and lower-case exchange identifiers', async () => {
    const records = await walk({ fee_category: 'general_provisions', exchange_name: ['nyse', 'nasdaq_bx'], fee_type: 'option' });
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record.fee_category).toBe('general_provisions');
      expect(['nyse', 'nasdaq_bx']).toContain(record.exchange_name);
      expect(record.fee_type).toBe('option');
    }
    const { body } = await get(RESULTS_PATH, { exchange_name: 'NYSE' });
    expect(body.meta.record_count).toBe(0);
    // Records carry not_applicable, but the edition's filter values of fee_trade_type do not have it.
    expect((await get(RESULTS_PATH, { fee_trade_type: 'not_applicable' })).status).toBe(422);
  });

  it('answers a value not in the edition’s lists, or order_by=supplier_name, 422 VALIDATION_ERROR naming each', async () => {
    const { status, body } = await get<unknown>(RESULTS_PATH, {
      fee_category: ['fees_and_rebates', 'Fee And Rebates'],
      order_by: 'supplier_name',
      page_size: 0,
    });
    expect(status).toBe(422);
    expect(body).toStrictEqual({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Invalid query parameters.',
        details: [
          { loc: ['query', 'page_size'], msg: 'Input should be greater than or equal to 1' },
          { loc: ['query', 'order_by'], msg: "Input should be 'created_on', 'scraped_time', 'fee_type' or 'fee_category'" },
          {
            loc: ['query', 'fee_category'],
            msg: "Input should be 'fees_and_rebates', 'legal_regulatory_fee', 'market_data_fees', 'participant_fee', 'port_fees_and_other_services' or 'general_provisions'",
          },
        ],
      },
      meta: { query_time_ms: expect.any(Number) },
    });
  });

  it('orders by fee_type and fee_category as the snake_case text they carry, and by created_on, which records do not carry', async () => {
    for (const field of ['fee_type', 'fee_category'] as const) {
      const values = (await walk({ order_by: field, order_dir: 'asc' })).map((record) => record[field]);
      expect(values).toEqual([...values].sort());
    }
    const byCreated = (await walk({ order_by: 'created_on', order_dir: 'asc' })).map((record) => record.record_id);
    const interfaceByCreated = (await getAllResults(twin.current, { query: { order_by: 'created_on', order_dir: 'asc' } })).records;
    expect(byCreated).toEqual(interfaceByCreated.map((record) => record.id));
  });
});

describe('the 2026 shape: the include flags', () => {
  it('fill the source fields and relationships only when asked, with true', async () => {
    const plain = (await get(RESULTS_PATH, { page_size: 50 })).body.data;
    const cited = (await get(RESULTS_PATH, { page_size: 50, include_source: 'true', include_footnotes: 'true', include_definitions: 'true' })).body.data;
    expect(cited.map((record) => record.record_id)).toEqual(plain.map((record) => record.record_id));
    for (const [n, record] of cited.entries()) {
      expect(record).toStrictEqual({
        ...plain[n],
        source_document: expect.stringMatching(/\.pdf$/),
        source_link: expect.any(String),
        page_number: expect.any(Number),
        relationships: expect.any(Object),
      });
      expect(new URL(record.source_link as string)).toMatchObject({ protocol: 'https:', hostname: expect.stringMatching(/(^|\.)example\.com$/) });
      expect(Number.isInteger(record.page_number)).toBe(true);
      expect(Object.keys(record.relationships!)).toEqual(['footnotes', 'definitions']);
    }
    const footnotes = cited.flatMap((record) => record.relationships!.footnotes);
    const definitions = cited.flatMap((record) => record.relationships!.definitions);
    expect(cited.some((record) => record.relationships!.footnotes.length === 0)).toBe(true);
    expect(footnotes.some(({ text }) => text.includes('"') && /[^\x00-\x7f]/.test(text))).toBe(true);
    expect(definitions.every((definition) => Object.keys(definition).join() === 'term,text')).toBe(true);
    const footnotesOnly = (await get(RESULTS_PATH, { page_size: 50, include_footnotes: 'true', include_definitions: 'false' })).body.data;
    expect(footnotesOnly.map((record) => record.relationships)).toEqual(cited.map((record) => ({ ...record.relationships, definitions: [] })));
    expect(footnotesOnly.every((record) => record.source_link === null)).toBe(true);
  });

  it('take true or false alone: anything else is a 422 on the list, the record and the version', async () => {
    const { body: page } = await get(RESULTS_PATH, { page_size: 1 });
    const [record] = page.data;
    for (const path of [RESULTS_PATH, recordPath(record!.record_id), versionPath(record!.version_id)]) {
      for (const value of ['1', 'yes', 'True', '']) {
        const { status, body } = await get<{ error: { code: string; details: unknown[] } }>(path, { include_definitions: value });
        expect(status, `${path} ${value}`).toBe(422);
        expect(body.error.code).toBe('VALIDATION_ERROR');
        expect(body.error.details).toEqual([{ loc: ['query', 'include_definitions'], msg: "Input should be 'true' or 'false'" }]);
      }
    }
  });
});

describe('the 2026 shape: one record, one version', () => {
  it('answers one record by record_id as {data: record, meta}, with the include flags', async () => {
    const { body: page } = await get(RESULTS_PATH, { page_size: 3, page_number: 5, include_source: 'true', include_footnotes: 'true' });
    for (const listed of page.data) {
      const { status, body } = await get<{ data: FeeScheduleResult2026; meta: unknown }>(recordPath(listed.record_id), {
        include_source: 'true',
        include_footnotes: 'true',
      });
      expect(status).toBe(200);
      expect(body).toStrictEqual({ data: listed, meta: { record_count: 1, query_time_ms: expect.any(Number) } });
    }
  });

  it('answers an unknown record, and one of an exchange the scoped key does not cover, 404 NOT_FOUND', async () => {
    const unknown = await get<unknown>(recordPath('00000000-0000-4000-8000-000000000000'));
    expect(unknown).toMatchObject({ status: 404, body: error('NOT_FOUND', 'Fee schedule result not found.') });
    const [elsewhere] = await walk({ exchange_name: 'iex' });
    const scoped = await get<unknown>(recordPath(elsewhere!.record_id), {}, sandbox.current.keys.scoped_api_key);
    expect(scoped).toMatchObject({ status: 404, body: error('NOT_FOUND', 'Fee schedule result not found.') });
  });

  it('pages through every record of one version, 20 a page unless page_size says, from page 0', async () => {
    const all = await walk();
    const versionId = all[0]!.version_id;
    const expected = all.filter((record) => record.version_id === versionId).map((record) => record.record_id).sort();
    const first = await get(versionPath(versionId));
    expect(first.status).toBe(200);
    expect(first.body.meta).toMatchObject({ record_count: expected.length, current_page: 0, page_size: 20, total_pages: Math.ceil(expected.length / 20) });
    const ids: string[] = [];
    for (let page = 0; page < Math.ceil(expected.length / 2); page++) {
      const { body } = await get(versionPath(versionId), { page_size: 2, page_number: page });
      expect(body.meta.current_page).toBe(page);
      ids.push(...body.data.map((record) => record.record_id));
    }
    expect([...ids].sort()).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    const past = await get(versionPath(versionId), { page_number: 99 });
    expect(past.body.data).toEqual([]);
    expect((await get<unknown>(versionPath(versionId), { page_size: 101 })).status).toBe(422);
  });

  it('answers an unknown version 404 NOT_FOUND', async () => {
    const { status, body } = await get<unknown>(versionPath('not-a-version'));
    expect(status).toBe(404);
    expect(body).toStrictEqual(error('NOT_FOUND', 'Version not found.'));
  });

  it('serves a version the control route adds, named in the edition’s spelling', async () => {
    const [added] = await addVersions(sandbox.current, { exchange_name: 'nasdaq_phlx', fee_type: 'option', added: 2 });
    expect(added).toMatchObject({ exchange_name: 'nasdaq_phlx', fee_type: 'option', scraped_time: expect.stringMatching(/Z$/) });
    const { status, body } = await get(versionPath(added!.version_id), { page_size: 100 });
    expect(status).toBe(200);
    expect(body.meta.record_count).toBe(added!.records);
    for (const record of body.data) {
      expect(record).toMatchObject({ version_id: added!.version_id, exchange_name: 'nasdaq_phlx' });
      const { body: one } = await get<{ data: FeeScheduleResult2026 }>(recordPath(record.record_id));
      expect(one.data).toEqual(record);
    }
    // Withdrawn, it leaves the record and version endpoints as it leaves the list.
    expect((await control(sandbox.current, 'DELETE', `versions/${added!.version_id}`)).status).toBe(200);
    expect(await get<unknown>(versionPath(added!.version_id))).toMatchObject({ status: 404, body: error('NOT_FOUND', 'Version not found.') });
    expect(await get<unknown>(recordPath(body.data[0]!.record_id))).toMatchObject({
      status: 404,
      body: error('NOT_FOUND', 'Fee schedule result not found.'),
    });
  });
});

describe('the 2026 shape: filters and exchanges', () => {
  it('lists the filter values in the edition’s keys and spellings, narrowed by repeated exchange_name', async () => {
    const { status, body } = await get<{ data: Record<string, string[]>; meta: { record_count: number } }>(AVAILABLE_FILTERS_PATH);
    expect(status).toBe(200);
    expect(Object.keys(body.data)).toEqual([
      'exchange_names', 'fee_types', 'fee_categories', 'fee_actions', 'fee_participants',
      'fee_symbol_classifications', 'fee_symbol_types', 'fee_trade_types',
    ]);
    expect(body.data.fee_types).toEqual(['equity', 'option']);
    expect(body.data.fee_categories).toContain('general_provisions');
    expect(body.data.exchange_names).toContain('nasdaq_phlx');
    expect(body.meta.record_count).toBe(await liveRecords());
    const narrowed = await get<{ data: Record<string, string[]> }>(AVAILABLE_FILTERS_PATH, { exchange_name: ['nyse', 'cboe', 'NYSE', 'nowhere'] });
    expect(narrowed.body.data.exchange_names).toEqual(['nyse', 'cboe']);
    const scoped = await get<{ data: Record<string, string[]> }>(AVAILABLE_FILTERS_PATH, {}, sandbox.current.keys.scoped_api_key);
    expect(scoped.body.data.exchange_names).toEqual(['nyse', 'nasdaq', 'cboe']);
  });

  it('lists the exchanges as {name, display_name, fee_types, record_count}, the scoped key its own', async () => {
    const { status, body } = await get<{ data: { name: string; display_name: string; fee_types: string[]; record_count: number }[] }>(`${EXCHANGES_PATH}/`);
    expect(status).toBe(200);
    expect(body.data.find((exchange) => exchange.name === 'nyse')).toEqual({
      name: 'nyse',
      display_name: 'New York Stock Exchange',
      fee_types: ['equity', 'option'],
      record_count: expect.any(Number),
    });
    expect(body.data.reduce((sum, exchange) => sum + exchange.record_count, 0)).toBe(await liveRecords());
    const scoped = await get<{ data: { name: string }[] }>(`${EXCHANGES_PATH}/`, {}, sandbox.current.keys.scoped_api_key);
    expect(scoped.body.data.map((exchange) => exchange.name)).toEqual(sandbox.current.scopedExchanges);
    expect(sandbox.current.scopedExchanges).toEqual(['nyse', 'nasdaq', 'cboe']);
  });

  it('describes one exchange: its values and the dates of its scrapes', async () => {
    const { status, body } = await get<{ data: Record<string, unknown> }>(`${EXCHANGES_PATH}/nasdaq_phlx`);
    expect(status).toBe(200);
    expect(Object.keys(body.data)).toEqual([
      'name', 'display_name', 'date_range', 'fee_types', 'fee_categories', 'actions', 'participants',
      'symbol_classifications', 'symbol_types', 'trade_types',
    ]);
    const records = await walk({ exchange_name: 'nasdaq_phlx' });
    const days = records.map((record) => record.scraped_time.slice(0, 10)).sort();
    expect(body.data).toMatchObject({
      name: 'nasdaq_phlx',
      display_name: 'Nasdaq PHLX',
      date_range: { earliest: days[0], latest: days.at(-1) },
      fee_types: ['option'],
    });
    expect(new Set(body.data.actions as string[])).toEqual(new Set(records.map((record) => record.fee_action)));
  });

  it('answers an unknown exchange 404 and another venue with the scoped key 403 FORBIDDEN, on every exchange endpoint', async () => {
    for (const rest of ['', '/fees', '/rules', '/order-types', '/fees/historical']) {
      expect(await get<unknown>(`${EXCHANGES_PATH}/NYSE${rest}`)).toMatchObject({ status: 404, body: error('NOT_FOUND', 'Exchange not found.') });
      expect(await get<unknown>(`${EXCHANGES_PATH}/iex${rest}`, {}, sandbox.current.keys.scoped_api_key)).toMatchObject({
        status: 403,
        body: error('FORBIDDEN', "You do not have access to this exchange's data."),
      });
    }
  });

  it('still serves fees, rules, order types and history, behind the key header, with the 2026 error body', async () => {
    for (const rest of ['/fees', '/rules', '/order-types', '/fees/historical']) {
      const { status, body } = await get<{ exchange: string }>(`${EXCHANGES_PATH}/nyse${rest}`);
      expect(status, rest).toBe(200);
      expect(body.exchange).toBe('nyse');
    }
    const { status, body } = await get<{ error: { code: string; details: unknown[] } }>(`${EXCHANGES_PATH}/nyse/fees/historical`, { start_date: '2024-02-30' });
    expect(status).toBe(422);
    expect(body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Invalid query parameters.',
      details: [{ loc: ['query', 'start_date'], msg: 'Input should be a valid date in the format YYYY-MM-DD' }],
    });
  });
});

describe('the 2026 shape: keys, errors and rate-limit headers', () => {
  const PATHS = [RESULTS_PATH, AVAILABLE_FILTERS_PATH, `${EXCHANGES_PATH}/`, `${EXCHANGES_PATH}/nyse`, `${EXCHANGES_PATH}/nyse/fees`, recordPath('x'), versionPath('x')];

  it('wants the key in the one key header on every endpoint: none, an unknown one or a Bearer token is 401 UNAUTHORIZED', async () => {
    for (const path of PATHS) {
      for (const request of [{ key: null }, { key: 'not-a-key' }, { key: null, headers: { authorization: `Bearer ${sandbox.current.keys.api_key}` } }]) {
        const answer = await getResults<unknown>(sandbox.current, { path, ...request });
        expect(answer, path).toMatchObject({ status: 401, body: error('UNAUTHORIZED', 'Missing or invalid API key.') });
      }
    }
  });

  it('answers a path it does not have 404 NOT_FOUND, and another method 405, in the edition’s error body', async () => {
    expect(await get<unknown>(`${API_PREFIX}/nowhere`)).toMatchObject({ status: 404, body: error('NOT_FOUND', 'Not found.') });
    const response = await fetch(`${sandbox.current.url}${RESULTS_PATH}`, { method: 'POST', headers: { [RESULTS_KEY_HEADER]: sandbox.current.keys.api_key } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(await response.json()).toEqual(error('METHOD_NOT_ALLOWED', 'Method not allowed.'));
  });

  it('sends X-RateLimit-Limit, -Remaining and -Reset (Unix seconds) on every response', async () => {
    for (const [path, key] of [[RESULTS_PATH, sandbox.current.keys.api_key], [recordPath('x'), sandbox.current.keys.api_key], [RESULTS_PATH, null]] as const) {
      const before = Math.floor(Date.now() / 1000);
      const { headers } = await get<unknown>(path, {}, key);
      expect(headers.get('x-ratelimit-limit')).toBe('1000000');
      expect(headers.get('x-ratelimit-remaining')).toBe('1000000');
      const reset = Number(headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(before);
      expect(reset).toBeLessThanOrEqual(before + 61);
    }
  });
});

describe('the 2026 shape with --rate and --faults', () => {
  const limited = useSandbox({ records: 20, shape: '2026', rate: { requests: 2, seconds: 86_400 } });
  const faulty = useSandbox({ records: 20, shape: '2026', faults: true });

  it('counts the budget in the three headers, then answers 429 with Retry-After and no body', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { status, headers } = await getResults(limited.current, { path: `${EXCHANGES_PATH}/` });
      expect(status).toBe(200);
      expect(headers.get('x-ratelimit-limit')).toBe('2');
      remaining.push(headers.get('x-ratelimit-remaining')!);
    }
    const { status, headers, text } = await getResults(limited.current);
    // A window turning between the calls gives a fresh budget: then the third call is a 200.
    if (status === 200) return;
    expect(remaining).toEqual(['1', '0']);
    expect(status).toBe(429);
    expect(text).toBe('');
    expect(Number(headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(headers.get('x-ratelimit-reset')) % 86_400).toBe(0);
  });

  it('fails first tries as the interface shape does, its 429 without a body, and answers the retry', async () => {
    const kinds = new Set<string>();
    for (let page = 0; kinds.size < 3 && page < 200; page++) {
      const path = `${RESULTS_PATH}?page_size=1&page_number=${page}`;
      const headers = { [RESULTS_KEY_HEADER]: faulty.current.keys.api_key };
      const first = await fetch(`${faulty.current.url}${path}`, { headers });
      const text = await first.text().catch(() => 'cut');
      if (first.status === 200 && text !== 'cut') continue;
      kinds.add(first.status === 200 ? 'truncated-200' : String(first.status));
      if (first.status === 429) expect(text).toBe('');
      const retry = await fetch(`${faulty.current.url}${path}`, { headers });
      expect(retry.status).toBe(200);
      expect(((await retry.json()) as Page2026).meta.current_page).toBe(page);
    }
    expect(kinds).toEqual(new Set(['503', '429', 'truncated-200']));
  });
});

describe('the interface shape beside it', () => {
  it('answers the record and version endpoints, and one exchange, 404 with the generic body, as a service of that shape would', async () => {
    const [record] = (await getResults(twin.current, { query: { page_size: 1 } })).body.data;
    for (const path of [recordPath((record as FeeScheduleResult).id), versionPath(record!.version_id), `${EXCHANGES_PATH}/NYSE`]) {
      const answer = await getResults<unknown>(twin.current, { path });
      expect(answer, path).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    }
  });

  it('sends X-RateLimit-Remaining alone when no --rate is set', async () => {
    const { headers } = await getResults(twin.current, { query: { page_size: 1 } });
    expect(headers.get('x-ratelimit-remaining')).toBe('1000000');
    expect(headers.get('x-ratelimit-limit')).toBeNull();
    expect(headers.get('x-ratelimit-reset')).toBeNull();
  });

  it('keeps its spellings and scoped exchanges', async () => {
    expect(twin.current.scopedExchanges).toEqual(['NYSE', 'NASDAQ', 'CBOE']);
    expect(twin.current.shape).toBe('interface');
    const { body } = await getResults(twin.current, { query: { page_size: 100 } });
    expect(body.data.every((record) => /[A-Z]/.test(record.exchange_name) && 'created_on' in record)).toBe(true);
  });
});

