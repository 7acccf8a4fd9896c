import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 39, point 9: one export shape per command, whatever the venue: a fee schedule's tiers are
// rows, its columns declared and in a fixed order, in CSV and Parquet alike.
const sandbox = useSandbox({ records: 20 });
const startServer = useRecordingServers();
const dir = tempDir('mkt-export-shapes-');
const sandboxEnv = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });

const FEES_HEADER =
  'exchange,effective_date,fee_schedule.maker_fee,fee_schedule.taker_fee,fee_schedule.tier_thresholds.tier,' +
  'fee_schedule.tier_thresholds.volume,fee_schedule.tier_thresholds.maker_rebate,last_updated';

const HISTORICAL_HEADER =
  'exchange,start_date,end_date,fee_schedules.exchange,fee_schedules.effective_date,fee_schedules.fee_schedule.maker_fee,' +
  'fee_schedules.fee_schedule.taker_fee,fee_schedules.fee_schedule.tier_thresholds.tier,fee_schedules.fee_schedule.tier_thresholds.volume,' +
  'fee_schedules.fee_schedule.tier_thresholds.maker_rebate,fee_schedules.last_updated';

async function mkt(args: string[], env: Record<string, string>): Promise<string> {
  const run = await runInProcess(args, { env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run.stdout;
}

/** A schedule whose fields come in another order than the document's, and tiers as given. */
const schedule = (effective: string, tiers: Record<string, unknown>) => ({
  last_updated: `${effective}T00:00:00Z`,
  fee_schedule: { tier_thresholds: tiers, taker_fee: 0.003, maker_fee: -0.002 },
  effective_date: effective,
  exchange: 'X',
});

async function serve(fees: unknown, historical: unknown) {
  const server = await startServer((request, response) => sendJson(response, 200, request.url.includes('/historical') ? historical : fees));
  return { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' };
}

async function parquetOf(args: string[], env: Record<string, string>): Promise<{ columns: [string, string | undefined][]; rows: Record<string, unknown>[] }> {
  const path = join(dir, `${args.join('-').replace(/[^\w-]/g, '_')}.parquet`);
  await mkt([...args, '-o', path], env);
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const columns = parquetSchema(metadata).children.map((child): [string, string | undefined] => [child.element.name, child.element.type]);
  const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
  return { columns, rows: await parquetReadObjects({ file, compressors }) };
}

describe('fees: the same columns for every venue, a row per tier', () => {
  it('csv: one tier (NYSE) and five (CBOE) under one header', async () => {
    expect(await mkt(['fees', 'NYSE', '-f', 'csv'], sandboxEnv())).toBe(
      `${FEES_HEADER}\r\nNYSE,2024-08-08,-0.0035,0.0027,tier_1,500000,-0.0038,2024-08-03T12:35:43Z\r\n`,
    );
    const cboe = (await mkt(['fees', 'CBOE', '-f', 'csv'], sandboxEnv())).split('\r\n');
    expect(cboe[0]).toBe(FEES_HEADER);
    expect(cboe.slice(1, -1).map((line) => line.split(',').slice(4, 7).join(','))).toEqual([
      'tier_1,2500000,-0.27',
      'tier_2,10000000,-0.31',
      'tier_3,20000000,-0.33',
      'tier_4,40000000,-0.35',
      'tier_5,80000000,-0.38',
    ]);
  });

  it('csv: a schedule without tiers is one row with the tier fields empty; the fields in the declared order whatever the body\'s', async () => {
    const env = await serve(schedule('2024-01-01', {}), {});
    expect(await mkt(['fees', 'X', '-f', 'csv'], env)).toBe(`${FEES_HEADER}\r\nX,2024-01-01,-0.002,0.003,,,,2024-01-01T00:00:00Z\r\n`);
  });

  it('parquet: the same columns and types for a venue with no tiers as for one with five', async () => {
    const none = await parquetOf(['fees', 'X', '-f', 'parquet'], await serve(schedule('2024-01-01', {}), {}));
    const five = await parquetOf(['fees', 'CBOE', '-f', 'parquet'], sandboxEnv());
    const expected: [string, string][] = [
      ['exchange', 'BYTE_ARRAY'],
      ['effective_date', 'BYTE_ARRAY'],
      ['fee_schedule.maker_fee', 'DOUBLE'],
      ['fee_schedule.taker_fee', 'DOUBLE'],
      ['fee_schedule.tier_thresholds.tier', 'BYTE_ARRAY'],
      ['fee_schedule.tier_thresholds.volume', 'DOUBLE'],
      ['fee_schedule.tier_thresholds.maker_rebate', 'DOUBLE'],
      ['last_updated', 'BYTE_ARRAY'],
    ];
    expect(none.columns).toEqual(expected);
    expect(five.columns).toEqual(expected);
    expect(none.rows).toEqual([
      {
        exchange: 'X',
        effective_date: '2024-01-01',
        'fee_schedule.maker_fee': -0.002,
        'fee_schedule.taker_fee': 0.003,
        'fee_schedule.tier_thresholds.tier': null,
        'fee_schedule.tier_thresholds.volume': null,
        'fee_schedule.tier_thresholds.maker_rebate': null,
        last_updated: '2024-01-01T00:00:00Z',
      },
    ]);
    expect(five.rows.map((row) => row['fee_schedule.tier_thresholds.tier'])).toEqual(['tier_1', 'tier_2', 'tier_3', 'tier_4', 'tier_5']);
  });

  it('parquet: a fee the server sent as text makes its column text, rather than failing the export', async () => {
    const body = schedule('2024-01-01', { tier_1: { volume: 5, maker_rebate: -0.003 } });
    const { columns, rows } = await parquetOf(['fees', 'X', '-f', 'parquet'], await serve({ ...body, fee_schedule: { ...body.fee_schedule, maker_fee: '-0.002' } }, {}));
    expect(columns[2]).toEqual(['fee_schedule.maker_fee', 'BYTE_ARRAY']);
    expect(columns[3]).toEqual(['fee_schedule.taker_fee', 'DOUBLE']);
    expect(rows[0]?.['fee_schedule.maker_fee']).toBe('-0.002');
  });

  it('--columns names the tiers\' fields, in CSV and in JSON', async () => {
    const select = ['--columns', 'exchange,fee_schedule.tier_thresholds.tier,fee_schedule.tier_thresholds.volume'];
    expect(await mkt(['fees', 'NYSE', '-f', 'csv', ...select], sandboxEnv())).toBe(
      'exchange,fee_schedule.tier_thresholds.tier,fee_schedule.tier_thresholds.volume\r\nNYSE,tier_1,500000\r\n',
    );
    expect(await mkt(['fees', 'NYSE', '-f', 'ndjson', ...select], sandboxEnv())).toBe(
      '{"exchange":"NYSE","fee_schedule":{"tier_thresholds":[{"tier":"tier_1","volume":500000}]}}\n',
    );
  });

  it('a name of the old shape is refused, with the new one suggested', async () => {
    const run = await runInProcess(['fees', 'NYSE', '-f', 'csv', '--columns', 'fee_schedule.tier_thresholds.tier_1.volume'], { env: sandboxEnv() });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe('mkt: unknown column "fee_schedule.tier_thresholds.tier_1.volume" in --columns; did you mean fee_schedule.tier_thresholds.volume?');
  });
});

describe('historical: a fixed column order', () => {
  it('csv: the declared order, not the body\'s, a row per schedule and tier', async () => {
    const history = {
      fee_schedules: [schedule('2023-01-01', { tier_2: { maker_rebate: -0.004, volume: 9 }, tier_1: { volume: 5, maker_rebate: -0.003 } }), schedule('2024-01-01', {})],
      end_date: null,
      start_date: '2023-01-01',
      exchange: 'X',
    };
    expect(await mkt(['historical', 'X', '-f', 'csv'], await serve({}, history))).toBe(
      `${HISTORICAL_HEADER}\r\n` +
        'X,2023-01-01,,X,2023-01-01,-0.002,0.003,tier_2,9,-0.004,2023-01-01T00:00:00Z\r\n' +
        'X,2023-01-01,,X,2023-01-01,-0.002,0.003,tier_1,5,-0.003,2023-01-01T00:00:00Z\r\n' +
        'X,2023-01-01,,X,2024-01-01,-0.002,0.003,,,,2024-01-01T00:00:00Z\r\n',
    );
  });

  it('an answer of another shape keeps its own columns, as the data has them', async () => {
    const env = await serve({}, [{ b: 1, a: 2 }]);
    expect(await mkt(['historical', 'X', '-f', 'csv'], env)).toBe('b,a\r\n1,2\r\n');
  });
});
