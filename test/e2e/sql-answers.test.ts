import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDuckDB } from '../helpers/duckdb.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 39, point 8: mkt sql keeps DuckDB's word and types.
const sandbox = useSandbox({ records: 20 });
const mirror = join(tempDir('mkt-mirror-'), 'sql.duckdb');
const env = () => ({ env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror } });
const sql = (query: string, ...args: string[]) => runInProcess(['sql', query, ...args], env());

beforeAll(async () => {
  expect((await runInProcess(['sync'], env())).code).toBe(0);
});

describe('mkt sql', () => {
  it("says DuckDB's whole error, its hint and the place in the query included, exit 2", async () => {
    expect(await sql('select * from result')).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mkt: Catalog Error: Table with name result does not exist!\n'
        + 'Did you mean "results"?\n'
        + '\n'
        + 'LINE 1: select * from result\n'
        + '                      ^\n'
        + `The query reads ${mirror} alone, read-only: tables results, results_with_values and mkt_*; -o writes the answer (docs/mirror.md).\n`,
    });
  });

  const INTEGERS = 'SELECT count(*) AS n, 12345678901234567890::UBIGINT AS u, 170141183460469231731687303715884105727::HUGEINT AS h, -9007199254740993::BIGINT AS b, 7::TINYINT AS t FROM results';

  // NDJSON writes each record with jsonText (src/output/flatten.ts), as JSON does: its digits are JSON's.
  it('writes integers with all their digits in JSON (as numbers, as NDJSON does) and CSV', async () => {
    const digits = '"n":20,"u":12345678901234567890,"h":170141183460469231731687303715884105727,"b":-9007199254740993,"t":7';
    expect(await sql(INTEGERS, '-f', 'json')).toMatchObject({ code: 0, stdout: `[\n  {${digits}}\n]\n`, stderr: '' });
    expect((await sql(INTEGERS, '-f', 'csv')).stdout).toBe('n,u,h,b,t\r\n20,12345678901234567890,170141183460469231731687303715884105727,-9007199254740993,7\r\n');
  });

  it('writes integers as INT64 (a UBIGINT as UINT_64), dates as DATE and timestamps as timestamps in Parquet', async () => {
    const file = join(tempDir('mkt-sql-'), 'answer.parquet');
    const query = `${INTEGERS.replace(' FROM results', '')}, DATE '2024-02-29' AS d, TIMESTAMPTZ '2024-05-01 13:45:12.123456+00' AS tz, TIMESTAMP '2024-05-01 13:45:12.5' AS ts FROM results`;
    expect(await sql(query, '-o', file)).toMatchObject({ code: 0, stderr: '' });
    const duck = await openDuckDB();
    try {
      const schema = await duck.rows(`SELECT name, type, converted_type, logical_type FROM parquet_schema('${file}') WHERE name <> 'root'`);
      expect(schema.map((column) => [column.name, column.type, column.converted_type])).toEqual([
        ['n', 'INT64', null],
        ['u', 'INT64', 'UINT_64'],
        // A HUGEINT fits no Parquet integer: a DOUBLE, as DuckDB's own COPY writes it.
        ['h', 'DOUBLE', null],
        ['b', 'INT64', null],
        ['t', 'INT64', null],
        ['d', 'INT32', 'DATE'],
        ['tz', 'INT64', 'TIMESTAMP_MICROS'],
        ['ts', 'INT64', null],
      ]);
      expect(schema.find((column) => column.name === 'ts')?.logical_type).toMatch(/isAdjustedToUTC=0, unit=.*MICROS=MicroSeconds/);
      const rows = await duck.rows(`SELECT n, u::VARCHAR AS u, b, t, d::VARCHAR AS d, epoch_us(tz) AS tz, ts::VARCHAR AS ts, typeof(d) AS date_type FROM '${file}'`);
      expect(rows).toEqual([{ n: 20n, u: '12345678901234567890', b: -9007199254740993n, t: 7n, d: '2024-02-29', tz: 1714571112123456n, ts: '2024-05-01 13:45:12.5', date_type: 'DATE' }]);
    } finally {
      duck.close();
    }
  });

  it('writes the timestamps of seconds, milliseconds and nanoseconds as the others, in microseconds', async () => {
    const query = "SELECT '2024-05-01 13:45:12'::TIMESTAMP_S AS s, '2024-05-01 13:45:12.123'::TIMESTAMP_MS AS ms, '2024-05-01 13:45:12.123456789'::TIMESTAMP_NS AS ns";
    expect(await sql(query, '-f', 'ndjson')).toMatchObject({
      code: 0,
      stdout: '{"s":"2024-05-01T13:45:12.000000","ms":"2024-05-01T13:45:12.123000","ns":"2024-05-01T13:45:12.123456"}\n',
    });
  });

  it('writes an INTERVAL in ISO 8601, a part below zero with its own sign', async () => {
    const query = "SELECT INTERVAL 1 DAY AS a, INTERVAL 90 MINUTES AS b, INTERVAL '1 year 2 months 3 days 4 hours 5 minutes 6.5 seconds' AS c, "
      + "INTERVAL 0 SECONDS AS d, INTERVAL '1 month -1 day -1 hour -0.25 seconds' AS e, NULL::INTERVAL AS f";
    expect(await sql(query, '-f', 'ndjson')).toMatchObject({ code: 0, stdout: '{"a":"P1D","b":"PT1H30M","c":"P1Y2M3DT4H5M6.5S","d":"PT0S","e":"P1M-1DT-1H-0.25S","f":null}\n' });
  });
});
