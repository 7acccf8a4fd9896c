import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 14, point 12: whatever bytes the server sends, every format writes valid UTF-8, with
// U+FFFD for each bad sequence or lone surrogate; a value that stays an object or an array is
// its compact JSON text in CSV, table and Parquet alike.
const startServer = useRecordingServers();
const dir = tempDir('mkt-output-encoding-');

/**
 * A JSON body with bytes no UTF-8 decoder accepts in place of `<ff>` (a stray byte), `<c3 28>`
 * (a lead byte before ASCII) and `<e2 82>` (a three-byte sequence cut after two). The text's
 * `\ud800` and `\udc00` are JSON escapes of lone surrogates, valid JSON that no UTF-8 can carry.
 */
function hostile(text: string): Buffer {
  const parts = text.split(/<([0-9a-f ]+)>/);
  return Buffer.concat(parts.map((part, index) => (index % 2 === 1 ? Buffer.from(part.split(' ').map((byte) => Number.parseInt(byte, 16))) : Buffer.from(part))));
}

const RECORD =
  '{"id":"r1","exchange_name":"NYSE","fee_type":"bad <ff>, <c3 28>, cut <e2 82>","fee_category":"lone \\ud800 and \\udc00",' +
  '"fee_charge_type":"Per Share","fee_amount":{"rate":"\\ud800","list":["a",1]},"fee_action":"Make","fee_action_details":null,' +
  '"fee_basis":"pair \\ud83d\\ude00, text \\\\ud800","fee_notes":["Option","Equity"],"fee_reference":null,"fee_participant":"Market Maker",' +
  '"fee_participant_details":null,"fee_monthly_volume":null,"fee_monthly_volume_criteria":null,"fee_symbol_classification":"All",' +
  '"fee_symbol_type":"Equity","fee_trade_type":null,"fee_symbol":null,"fee_excluded_symbols":null,"fee_conditions":[{"a":1},"b"],' +
  '"fee_exclusions":null,"fee_extra_info":null,"version_id":"v1","scraped_time":"2024-01-01T00:00:00Z","created_on":"2024-01-01T00:00:00",' +
  '"\\udc00key":"v"}';

const resultsPage = (record: string): Buffer =>
  hostile(
    `{"success":true,"message":"ok","data":[${record}],"total_records":1,"page_size":20,"total_pages":1,"current_page":0,` +
      '"query_time":0.001,"disable_jsonable_encoder":false}',
  );

const FEES =
  '{"exchange":"NY\\ud800SE<ff>","effective_date":"2024-01-01","fee_schedule":{"maker_fee":-0.002,"taker_fee":0.003,' +
  '"tier_thresholds":{"tier_1":{"volume":1000,"maker_rebate":-0.001}}},"venues":["A","\\udc00"],"mixed":[{"a":1},"b"],' +
  '"\\ud800key":"v","x<c3 28>":"w","last_updated":"2024-01-02T00:00:00Z"}';

/** What each format must show of RECORD: a U+FFFD for each bad sequence and lone surrogate. */
const RECORD_JSON =
  '{"id":"r1","exchange_name":"NYSE","fee_type":"bad �, �(, cut �","fee_category":"lone � and �",' +
  '"fee_charge_type":"Per Share","fee_amount":{"rate":"�","list":["a",1]},"fee_action":"Make","fee_action_details":null,' +
  '"fee_basis":"pair 😀, text \\\\ud800","fee_notes":["Option","Equity"],"fee_reference":null,"fee_participant":"Market Maker",' +
  '"fee_participant_details":null,"fee_monthly_volume":null,"fee_monthly_volume_criteria":null,"fee_symbol_classification":"All",' +
  '"fee_symbol_type":"Equity","fee_trade_type":null,"fee_symbol":null,"fee_excluded_symbols":null,"fee_conditions":[{"a":1},"b"],' +
  '"fee_exclusions":null,"fee_extra_info":null,"version_id":"v1","scraped_time":"2024-01-01T00:00:00Z","created_on":"2024-01-01T00:00:00",' +
  '"�key":"v"}';

/** The columns of RECORD that hold something hostile, and their text in CSV, table and Parquet. */
const COLUMNS = ['id', 'fee_type', 'fee_category', 'fee_amount', 'fee_basis', 'fee_notes', 'fee_conditions'];
const CELLS = {
  id: 'r1',
  fee_type: 'bad �, �(, cut �',
  fee_category: 'lone � and �',
  fee_amount: '{"rate":"�","list":["a",1]}',
  fee_basis: 'pair 😀, text \\ud800',
  fee_notes: '["Option","Equity"]',
  fee_conditions: '[{"a":1},"b"]',
};

function send(response: ServerResponse, body: Buffer): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
}

async function serve(record = RECORD) {
  const server = await startServer((request, response) => send(response, request.url.includes('/exchanges/') ? hostile(FEES) : resultsPage(record)));
  return { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' };
}

/** The text of bytes that must be valid UTF-8: a fatal decoder throws on anything else. */
function strictUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

async function mkt(args: string[], env: Record<string, string>): Promise<string> {
  const run = await runInProcess(args, { env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return strictUtf8(run.stdoutBytes);
}

/** A Parquet file's rows, each string column's bytes checked to be UTF-8 before they are read as text. */
async function parquetRows(args: string[], env: Record<string, string>): Promise<Record<string, unknown>[]> {
  const path = join(dir, `${args.join('-').replace(/[^\w-]/g, '_')}.parquet`);
  expect(await mkt([...args, '-f', 'parquet', '-o', path], env)).toBe('');
  const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
  const rows = await parquetReadObjects({ file: await asyncBufferFromFile(path), compressors, utf8: false });
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [name, value instanceof Uint8Array ? strictUtf8(value) : value])));
}

describe('results from a server that sends invalid UTF-8, lone surrogates and nested values', () => {
  it('json and ndjson: U+FFFD in keys and values, never a \\ud800 escape', async () => {
    const env = await serve();
    expect(await mkt(['results', '-f', 'json'], env)).toBe(`[\n  ${RECORD_JSON}\n]\n`);
    expect(await mkt(['results', '-f', 'ndjson'], env)).toBe(`${RECORD_JSON}\n`);
  });

  it('csv: U+FFFD, and an object or array in a declared column as its JSON text', async () => {
    const env = await serve();
    expect(await mkt(['results', '-f', 'csv', '--columns', COLUMNS.join(',')], env)).toBe(
      'id,fee_type,fee_category,fee_amount,fee_basis,fee_notes,fee_conditions\r\n' +
        'r1,"bad �, �(, cut �",lone � and �,"{""rate"":""�"",""list"":[""a"",1]}","pair 😀, text \\ud800",' +
        '"[""Option"",""Equity""]","[{""a"":1},""b""]"\r\n',
    );
  });

  it('table: the same JSON text, an array of scalars included', async () => {
    const env = await serve();
    expect(await mkt(['results', '-f', 'table', '--columns', COLUMNS.join(',')], env)).toBe(
      [
        '┌────┬──────────────────┬──────────────┬─────────────────────────────┬──────────────────────┬─────────────────────┬───────────────┐',
        '│ ID │ Type             │ Category     │ Amount                      │ Basis                │ Notes               │ Conditions    │',
        '├────┼──────────────────┼──────────────┼─────────────────────────────┼──────────────────────┼─────────────────────┼───────────────┤',
        '│ r1 │ bad �, �(, cut � │ lone � and � │ {"rate":"�","list":["a",1]} │ pair 😀, text \\ud800 │ ["Option","Equity"] │ [{"a":1},"b"] │',
        '└────┴──────────────────┴──────────────┴─────────────────────────────┴──────────────────────┴─────────────────────┴───────────────┘',
        '',
      ].join('\n'),
    );
  });

  it('parquet: the same texts, as valid UTF-8 strings, in every column', async () => {
    const env = await serve();
    const [row] = await parquetRows(['results'], env);
    expect(row).toMatchObject(CELLS);
    expect(await parquetRows(['results', '--columns', COLUMNS.join(',')], env)).toEqual([CELLS]);
  });

  it('parquet: an object in a timestamp column still fails the export, naming it', async () => {
    const env = await serve(RECORD.replace('"scraped_time":"2024-01-01T00:00:00Z"', '"scraped_time":{"at":"\\ud800"}'));
    const run = await runInProcess(['results', '-f', 'parquet', '-o', join(dir, 'typed.parquet')], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('mkt: cannot write row 1 to Parquet: scraped_time is not an ISO 8601 timestamp: {"at":"\\ud800"}\n');
  });
});

// The body is a fee schedule's; where columns come from the data (the hostile keys in the header), it is asked for as rules, since fees declare theirs.
describe('an exchange resource from such a server (fees)', () => {
  it('json and ndjson: U+FFFD in keys and values', async () => {
    const env = await serve();
    const body = {
      exchange: 'NY�SE�',
      effective_date: '2024-01-01',
      fee_schedule: { maker_fee: -0.002, taker_fee: 0.003, tier_thresholds: { tier_1: { volume: 1000, maker_rebate: -0.001 } } },
      venues: ['A', '�'],
      mixed: [{ a: 1 }, 'b'],
      '�key': 'v',
      'x�(': 'w',
      last_updated: '2024-01-02T00:00:00Z',
    };
    expect(await mkt(['fees', 'NYSE', '-f', 'json'], env)).toBe(`${JSON.stringify(body, null, 2)}\n`);
    expect(await mkt(['fees', 'NYSE', '-f', 'ndjson'], env)).toBe(`${JSON.stringify(body)}\n`);
  });

  it('csv: U+FFFD in the header and the cells, arrays as JSON text', async () => {
    const env = await serve();
    expect(await mkt(['rules', 'NYSE', '-f', 'csv'], env)).toBe(
      'exchange,effective_date,fee_schedule.maker_fee,fee_schedule.taker_fee,fee_schedule.tier_thresholds.tier_1.volume,' +
        'fee_schedule.tier_thresholds.tier_1.maker_rebate,venues,mixed,�key,x�(,last_updated\r\n' +
        'NY�SE�,2024-01-01,-0.002,0.003,1000,-0.001,"[""A"",""�""]","[{""a"":1},""b""]",v,w,2024-01-02T00:00:00Z\r\n',
    );
  });

  it('table: the view, and the generic table with a list one item a line and other arrays as JSON text', async () => {
    const env = await serve();
    const view = await mkt(['fees', 'NYSE', '-f', 'table'], env);
    expect(view.split('\n').slice(0, 3)).toEqual(['┌────────────────┬──────────────────────┐', '│ Exchange       │ NY�SE�               │', '│ Effective date │ 2024-01-01           │']);
    expect(await mkt(['rules', 'NYSE', '-f', 'table', '--columns', 'exchange,venues,mixed'], env)).toBe(
      [
        '┌──────────┬────────┬───────────────┐',
        '│ exchange │ venues │ mixed         │',
        '├──────────┼────────┼───────────────┤',
        '│ NY�SE�   │ A      │ [{"a":1},"b"] │',
        '│          │ �      │               │',
        '└──────────┴────────┴───────────────┘',
        '',
      ].join('\n'),
    );
  });

  it('parquet: U+FFFD in column names and strings, arrays as JSON text', async () => {
    const env = await serve();
    expect(await parquetRows(['rules', 'NYSE'], env)).toEqual([
      {
        exchange: 'NY�SE�',
        effective_date: '2024-01-01',
        'fee_schedule.maker_fee': -0.002,
        'fee_schedule.taker_fee': 0.003,
        'fee_schedule.tier_thresholds.tier_1.volume': 1000,
        'fee_schedule.tier_thresholds.tier_1.maker_rebate': -0.001,
        venues: '["A","�"]',
        mixed: '[{"a":1},"b"]',
        '�key': 'v',
        'x�(': 'w',
        last_updated: '2024-01-02T00:00:00Z',
      },
    ]);
    const file = readFileSync(join(dir, 'rules-NYSE.parquet'));
    expect(file.includes(Buffer.from('\uFFFDkey'))).toBe(true);
  });
});
