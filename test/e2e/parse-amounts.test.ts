import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../src/api/amounts.js';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import { useDuckDB } from '../helpers/duckdb.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 17, point 1: --parse-amounts adds fee_amount_value and fee_amount_unit after fee_amount.
const sandbox = useSandbox({ records: 300 });
const duck = useDuckDB();
const env = () => ({ env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key } });
const WITH_AMOUNTS = FEE_SCHEDULE_RESULT_FIELD_NAMES.flatMap((name) => (name === 'fee_amount' ? [name, 'fee_amount_value', 'fee_amount_unit'] : [name]));

describe('mkt results --parse-amounts', () => {
  it('adds the two fields right after fee_amount in JSON, parsed by the contract\'s rules', async () => {
    const run = await runInProcess(['results', '--all', '--parse-amounts', '-f', 'json'], env());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const records = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(records).toHaveLength(300);
    for (const record of records) {
      expect(Object.keys(record)).toEqual(WITH_AMOUNTS);
      const { value, unit } = parseAmount(record.fee_amount as string);
      expect([record.fee_amount_value, record.fee_amount_unit]).toEqual([value, unit]);
    }
    expect(records.some((record) => (record.fee_amount_value as number) < 0)).toBe(true);
  });

  it('writes them in the CSV header after fee_amount, and nothing without the flag', async () => {
    const parsed = await runInProcess(['results', '--page-size', '2', '--parse-amounts', '-f', 'csv'], env());
    expect(parsed.stdout.split('\r\n')[0]).toBe(WITH_AMOUNTS.join(','));
    const plain = await runInProcess(['results', '--page-size', '2', '-f', 'csv'], env());
    expect(plain.stdout.split('\r\n')[0]).toBe(FEE_SCHEDULE_RESULT_FIELD_NAMES.join(','));
  });

  it('lets --columns name either field without the flag', async () => {
    const run = await runInProcess(['results', '--page-size', '3', '--columns', 'fee_amount,fee_amount_value,fee_amount_unit', '-f', 'ndjson'], env());
    expect(run.code).toBe(0);
    for (const line of run.stdout.trimEnd().split('\n')) {
      const record = JSON.parse(line) as { fee_amount: string };
      expect(record).toEqual({ fee_amount: record.fee_amount, fee_amount_value: parseAmount(record.fee_amount).value, fee_amount_unit: parseAmount(record.fee_amount).unit });
    }
  });

  it('is a DOUBLE in Parquet, which DuckDB sums', async () => {
    const file = join(tempDir('mkt-amounts-'), 'fees.parquet');
    const run = await runInProcess(['results', '--all', '--parse-amounts', '-o', file], env());
    expect(run.code).toBe(0);
    const json = JSON.parse((await runInProcess(['results', '--all', '--parse-amounts', '-f', 'json'], env())).stdout) as { fee_amount_value: number | null }[];
    const expected = json.reduce((sum, record) => sum + (record.fee_amount_value ?? 0), 0);
    const [row] = await duck.current.rows(`SELECT typeof(any_value(fee_amount_value)) AS type, sum(fee_amount_value) AS total FROM '${file}'`);
    expect(row?.type).toBe('DOUBLE');
    expect(row?.total as number).toBeCloseTo(expected, 6);
  });
});
