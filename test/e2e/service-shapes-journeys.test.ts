import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_2026_FIELDS, FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import { enumKey } from '../../src/api/filter-spelling.js';
import { recordIdOf } from '../../src/api/record-id.js';
import { useDuckDB } from '../helpers/duckdb.js';
import { type InProcessOptions, runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 38, point 6's last bullet: the main journeys against the sandbox in each of its shapes,
// the interface document's and the 2026 edition's (docs/service-shapes.md), on the same data.
// Two pages of 100 and a part, for the walks; enough versions of each group for diff.
const RECORDS = 150;
type ServedRecord = Record<string, unknown> & { exchange_name: string; fee_type: string; version_id: string; scraped_time: string };

const SHAPES = [
  {
    shape: 'interface',
    sandbox: useSandbox({ records: RECORDS }),
    exchange: 'NYSE',
    feeType: 'Equity',
    columns: FEE_SCHEDULE_RESULT_FIELD_NAMES as readonly string[],
    /** The key's header on the exchange endpoints: the interface document's default. */
    settings: [] as string[][],
  },
  {
    shape: '2026',
    sandbox: useSandbox({ records: RECORDS, shape: '2026' }),
    exchange: 'nyse',
    feeType: 'equity',
    columns: FEE_SCHEDULE_RESULT_2026_FIELDS.map((field) => field.name) as readonly string[],
    settings: [['exchanges_auth', 'header:x-service-api-access-key']],
  },
].map((shape) => ({
  ...shape,
  /** Every record the sandbox serves, in its default order, as sent; read in beforeAll. */
  served: [] as ServedRecord[],
  /** A profile directory holding the shape's settings, a cache (the exchange list, the filter values) and a mirror of its own. */
  env: {} as Record<string, string>,
  run(args: readonly string[], options: InProcessOptions = {}) {
    return runInProcess(args, { ...options, env: { ...this.env, ...options.env } });
  },
}));
type Shape = (typeof SHAPES)[number];
const duckdb = useDuckDB();

beforeAll(async () => {
  for (const shape of SHAPES) {
    const { url, keys } = shape.sandbox.current;
    shape.env = { MKT_BASE_URL: url, MKT_API_KEY: keys.api_key, MKT_CONFIG_DIR: tempDir('mkt-config-'), MKT_CACHE_DIR: tempDir('mkt-cache-'), MKT_MIRROR: join(tempDir('mkt-mirror-'), 'm.duckdb') };
    for (const [name, value] of shape.settings) expect((await shape.run(['config', 'set', name!, value!])).code).toBe(0);
    for (let page = 0; page * 100 < RECORDS; page++) {
      const response = await fetch(`${url}/api/v1/fee-schedule-results?page_size=100&page_number=${page}`, { headers: { 'x-service-api-access-key': keys.api_key } });
      shape.served.push(...((await response.json()) as { data: ServedRecord[] }).data);
    }
  }
});

const lines = (records: readonly object[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');
const byId = (records: readonly object[]) => [...records].sort((a, b) => recordIdOf(a).localeCompare(recordIdOf(b)));
/** The group's versions, newest first, as diff picks them: by scraped_time. */
function versionsOf(shape: Shape): string[] {
  const group = shape.served.filter((record) => record.exchange_name === shape.exchange && enumKey(record.fee_type) === enumKey(shape.feeType));
  const sorted = [...group].sort((a, b) => Date.parse(b.scraped_time) - Date.parse(a.scraped_time));
  return [...new Set(sorted.map((record) => record.version_id))];
}

describe.each(SHAPES)('the journeys against the $shape shape', (shape) => {
  it('results: one page, and the --all walk, exactly as served', async () => {
    const page = await shape.run(['results', '--page-size', '5', '-f', 'json']);
    expect({ code: page.code, stderr: page.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(page.stdout)).toEqual(shape.served.slice(0, 5));
    expect(await shape.run(['results', '--all', '--page-size', '100', '-f', 'ndjson'])).toMatchObject({ code: 0, stderr: '', stdout: lines(shape.served) });
  });

  it('CSV writes the column set of the shape, one row a record', async () => {
    const csv = await shape.run(['results', '--all', '--page-size', '100', '-f', 'csv']);
    expect({ code: csv.code, stderr: csv.stderr }).toEqual({ code: 0, stderr: '' });
    const rows = csv.stdout.split('\r\n');
    expect(rows[0]).toBe(shape.columns.join(','));
    expect(rows[1]!.startsWith(`${recordIdOf(shape.served[0]!)},`)).toBe(true);
    expect(rows.filter((row) => /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(row))).toHaveLength(RECORDS);
  });

  it('Parquet holds the column set of the shape and every record, as DuckDB reads it', async () => {
    const file = join(tempDir('mkt-parquet-'), 'results.parquet');
    expect(await shape.run(['results', '--all', '--page-size', '100', '-o', file])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const described = await duckdb.current.rows(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
    expect(described.map((column) => column.column_name)).toEqual(shape.columns);
    const types = Object.fromEntries(described.map((column) => [column.column_name, column.column_type]));
    expect(types).toMatchObject({ scraped_time: 'TIMESTAMP WITH TIME ZONE', fee_amount: 'VARCHAR', version_id: 'VARCHAR' });
    if (shape.shape === '2026') expect(types).toMatchObject({ page_number: 'BIGINT', relationships: 'VARCHAR', source_link: 'VARCHAR' });
    const id = shape.columns[0]!;
    const [counted] = await duckdb.current.rows(`SELECT count(*)::INTEGER AS n, count(DISTINCT ${id})::INTEGER AS ids, max(exchange_name) FILTER (WHERE ${id} = $1) AS first FROM read_parquet('${file}')`, [recordIdOf(shape.served[0]!)]);
    expect(counted).toEqual({ n: RECORDS, ids: RECORDS, first: shape.served[0]!.exchange_name });
  });

  it('the table fits 80 and 100 columns and shows the records as sent', async () => {
    for (const columns of [80, 100]) {
      const table = await shape.run(['results', '--page-size', '3', '-f', 'table'], { stdout: { isTTY: true, columns }, env: { NO_COLOR: '1' } });
      expect({ code: table.code, stderr: table.stderr }).toEqual({ code: 0, stderr: '' });
      const rows = table.stdout.split('\n').filter((row) => row !== '');
      expect(Math.max(...rows.map((row) => [...row].length))).toBeLessThanOrEqual(columns);
      expect(rows[3]).toContain(`│ ${shape.served[0]!.exchange_name} `);
    }
  });

  it('a filter value in display case and in snake_case finds the same records, in the service spelling', async () => {
    const display = await shape.run(['results', '--all', '--page-size', '100', '-f', 'ndjson', '--fee-category', 'Fee And Rebates', '--fee-participant', 'Broker Dealer']);
    const snake = await shape.run(['results', '--all', '--page-size', '100', '-f', 'ndjson', '--fee-category', 'fees_and_rebates', '--fee-participant', 'broker_dealer']);
    expect(display).toMatchObject({ code: 0, stderr: '' });
    expect(snake).toEqual(display);
    const found = display.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as ServedRecord);
    const category = shape.shape === '2026' ? 'fees_and_rebates' : 'Fee And Rebates';
    const participant = shape.shape === '2026' ? 'broker_dealer' : 'Broker Dealer';
    // The interface sandbox compares loosely, so Fee And Rebates finds Fees And Rebates too, as enumKey does.
    expect(found).toEqual(shape.served.filter((record) => enumKey(record.fee_category as string) === enumKey(category) && enumKey(record.fee_participant as string) === enumKey(participant)));
    expect(new URL((await shape.run(['results', '--fee-category', 'fees_and_rebates', '-v'])).stderr.split(' ')[2]!).searchParams.get('fee_category')).toBe(category);
    expect(found.length).toBeGreaterThan(0);
  });

  it('the include flags are sent, and the 2026 sandbox fills the source fields and relationships', async () => {
    const cited = await shape.run(['results', '--page-size', '5', '-f', 'json', '--include-source', '--include-footnotes', '--include-definitions']);
    expect({ code: cited.code, stderr: cited.stderr }).toEqual({ code: 0, stderr: '' });
    const records = JSON.parse(cited.stdout) as ServedRecord[];
    expect(records.map(recordIdOf)).toEqual(shape.served.slice(0, 5).map(recordIdOf));
    if (shape.shape === 'interface') return expect(records).toEqual(shape.served.slice(0, 5));
    for (const record of records) {
      expect(record).toMatchObject({ source_document: expect.stringMatching(/\.pdf$/), source_link: expect.stringMatching(/^https:\/\//), page_number: expect.any(Number) });
      expect(record.relationships).toEqual({ footnotes: expect.any(Array), definitions: expect.any(Array) });
    }
    expect(records.some((record) => (record.relationships as { footnotes: unknown[] }).footnotes.length > 0)).toBe(true);
  });

  it('sync, then --offline gives the same records as the service, and a second sync finds nothing new', async () => {
    const first = await shape.run(['sync', '-f', 'json']);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(new RegExp(`^synced ${shape.env.MKT_MIRROR}: ${RECORDS} new records`)) });
    expect(JSON.parse(first.stdout)).toMatchObject({ new_records: RECORDS, total_records: RECORDS, full_walk: true });
    const offline = await shape.run(['results', '--offline', '--all', '-f', 'ndjson']);
    expect({ code: offline.code, stderr: offline.stderr }).toEqual({ code: 0, stderr: '' });
    const mirrored = offline.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as ServedRecord);
    // The 2026 records carry no created_on, by which the service orders: the mirror orders by scraped_time, then id.
    if (shape.shape === 'interface') expect(mirrored).toEqual(shape.served);
    else expect(byId(mirrored)).toEqual(byId(shape.served));
    const second = await shape.run(['sync', '-f', 'json']);
    expect(JSON.parse(second.stdout)).toMatchObject({ new_records: 0, changed_records: 0, removed_records: 0, requests: 1, total_records: RECORDS, full_walk: false });
  });

  it('an answer without records writes the header of its shape, from the service and from the mirror', async () => {
    for (const source of [[], ['--offline']]) {
      const empty = await shape.run(['results', ...source, '--start-date', '2099-01-01', '-f', 'csv']);
      expect(empty).toMatchObject({ code: 0, stderr: '', stdout: `${shape.columns.join(',')}\r\n` });
    }
  });

  it('diff of the exchange and fee type, from the service and from the mirror alike, the fee type in either spelling', async () => {
    const [to, from] = versionsOf(shape);
    const columns = ['--columns', 'change,exchange_name,fee_type,from_version,to_version,before_id,after_id'];
    const online = await shape.run(['diff', shape.exchange, shape.feeType, '--online', '-f', 'csv', ...columns]);
    expect(online.code).toBe(0);
    const summary = new RegExp(`^${shape.exchange} ${shape.feeType}: \\d+ changed, \\d+ added, \\d+ removed · ${from} \\(\\d{4}-\\d\\d-\\d\\d\\) → ${to} \\(\\d{4}-\\d\\d-\\d\\d\\)\n`);
    expect(online.stderr).toMatch(summary);
    const rows = online.stdout.split('\r\n').slice(1, -1);
    expect(rows.length).toBeGreaterThan(0);
    const ids = new Set(shape.served.filter((record) => record.version_id === from || record.version_id === to).map(recordIdOf));
    for (const row of rows) {
      const [change, exchange, feeType, fromVersion, toVersion, beforeId, afterId] = row.split(',');
      expect({ change, exchange, feeType, fromVersion, toVersion }).toEqual({ change: expect.stringMatching(/^(added|removed|changed)$/), exchange: shape.exchange, feeType: shape.feeType, fromVersion: from, toVersion: to });
      for (const id of [beforeId, afterId].filter((each) => each !== '')) expect(ids.has(id!)).toBe(true);
    }
    // The other spelling of the fee type is sent in the service's; the mirror compares either.
    const otherSpelling = shape.feeType === 'Equity' ? 'equity' : 'Equity';
    for (const source of ['--online', '--offline']) {
      const spelt = await shape.run(['diff', shape.exchange, otherSpelling, source, '-f', 'csv', ...columns]);
      expect({ code: spelt.code, stdout: spelt.stdout, stderr: spelt.stderr }).toEqual({ code: 0, stdout: online.stdout, stderr: expect.stringMatching(summary) });
    }
  });

  it('exchanges lists the exchanges of the records, with their fee types', async () => {
    const listed = await shape.run(['exchanges', '-f', 'json']);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    const exchanges = JSON.parse(listed.stdout) as { exchange: string; fee_types: string[] }[];
    const named = new Set(shape.served.map((record) => record.exchange_name));
    expect([...named].filter((name) => !exchanges.some((exchange) => exchange.exchange === name))).toEqual([]);
    expect(exchanges.find((exchange) => exchange.exchange === shape.exchange)).toMatchObject({ fee_types: expect.arrayContaining([shape.feeType]) });
  });

  it('results get <id> and version <version_id>: from the service where it has them, else from the mirror with a one-line note', async () => {
    const record = shape.served[0]!;
    const id = recordIdOf(record);
    const got = await shape.run(['results', 'get', id, '-f', 'json']);
    const version = await shape.run(['version', record.version_id, '-f', 'ndjson']);
    const ofVersion = shape.served.filter((each) => each.version_id === record.version_id);
    expect(JSON.parse(got.stdout)).toEqual(record);
    expect(byId(version.stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as object))).toEqual(byId(ofVersion));
    expect({ got: got.code, version: version.code }).toEqual({ got: 0, version: 0 });
    // CSV of either command has the column set of the record's shape, as results has.
    for (const args of [['results', 'get', id], ['version', record.version_id]]) {
      expect((await shape.run([...args, '-f', 'csv'])).stdout.split('\r\n')[0]).toBe(shape.columns.join(','));
    }
    if (shape.shape === '2026') {
      expect({ got: got.stderr, version: version.stderr }).toEqual({ got: '', version: '' });
    } else {
      const { host } = new URL(shape.sandbox.current.url);
      expect(got.stderr).toBe(`warning: ${host} does not offer GET /api/v1/fee-schedule-results/{record_id}: record ${id} from the mirror ${shape.env.MKT_MIRROR}\n`);
      expect(version.stderr).toBe(`warning: ${host} does not offer GET /api/v1/fee-schedule-results/versions/{version_id}: version ${record.version_id} from the mirror ${shape.env.MKT_MIRROR}\n`);
    }
  });

  it('errors: a bad key exits 3, an unknown exchange 4', async () => {
    const badKey = await shape.run(['results'], { env: { MKT_API_KEY: 'not-the-key-0123456789' } });
    expect(badKey).toMatchObject({
      code: 3,
      stdout: '',
      stderr: `mkt: the service rejected the API key (401)${shape.shape === '2026' ? ': UNAUTHORIZED: Missing or invalid API key.' : ''}\n`
        + 'MKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.\n',
    });
    // The hint comes from the exchange list that `mkt exchanges` kept above.
    const unknown = await shape.run(['fees', 'NOPE']);
    expect(unknown).toMatchObject({ code: 4, stdout: '', stderr: `mkt: unknown exchange NOPE (404)\nDid you mean ${shape.exchange}? \`mkt exchanges\` lists the exchanges your key reaches.\n` });
  });
});

describe('the journeys that differ between the shapes', () => {
  const [interfaceShape, shape2026] = SHAPES as [Shape, Shape];

  it('compare at a volume ranks the same venues at the same rates in both shapes', async () => {
    const venues = (shape: Shape) => ['NYSE', 'NASDAQ', 'CBOE'].map((name) => (shape.shape === '2026' ? name.toLowerCase() : name));
    const [first, second] = await Promise.all(SHAPES.map((shape) => shape.run(['compare', ...venues(shape), '--volume', '50M', '-f', 'json'])));
    expect({ code: first!.code, stderr: first!.stderr }).toEqual({ code: 0, stderr: '' });
    expect({ code: second!.code, stderr: second!.stderr }).toEqual({ code: 0, stderr: '' });
    const ranked = JSON.parse(first!.stdout) as { exchange: string; rank: number | null }[];
    expect(ranked.map((row) => row.exchange)).toEqual(['NYSE', 'CBOE', 'NASDAQ']);
    expect(JSON.parse(second!.stdout)).toEqual(ranked.map((row) => ({ ...row, exchange: row.exchange.toLowerCase() })));
  });

  it('diff names an item in the same words in both shapes, whatever their spelling (not_applicable is N/A)', async () => {
    const items = await Promise.all(SHAPES.map(async (shape) => {
      const run = await shape.run(['diff', shape.exchange, shape.feeType, '--online', '-f', 'csv', '--columns', 'item']);
      expect(run.code).toBe(0);
      return run.stdout.split('\r\n').slice(1, -1).map((item) => item.split(' · ').map(enumKey).join(' · ')).sort();
    }));
    expect(items[0]!.length).toBeGreaterThan(0);
    expect(items[1]).toEqual(items[0]);
  });

  it('a value the 2026 service rejects exits 2 with its details; the interface shape takes it', async () => {
    const rejected = await shape2026.run(['results', '--order-by', 'supplier_name']);
    expect(rejected).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "mkt: the service rejected the request (422): VALIDATION_ERROR: Invalid query parameters. (order_by: Input should be 'created_on', 'scraped_time', 'fee_type' or 'fee_category')\n",
    });
    expect((await interfaceShape.run(['results', '--order-by', 'supplier_name', '--page-size', '1'])).code).toBe(0);
  });

  it('--sandbox --sandbox-shape 2026 answers diff in the service spelling', async () => {
    const run = await runInProcess(['--sandbox', '--sandbox-shape', '2026', 'diff', 'nyse', 'Equity', '-f', 'csv', '--columns', 'change,exchange_name,fee_type']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n').slice(0, 2)).toEqual(['change,exchange_name,fee_type', expect.stringMatching(/^(added|removed|changed),nyse,equity$/)]);
  });
});
