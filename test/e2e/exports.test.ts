import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import type { FeeScheduleResult } from '../../src/api/types.js';
import { getAllResults } from '../contract/http.js';
import { useDuckDB } from '../helpers/duckdb.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { MKT_BIN, spawnMkt, tempConfigDir } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const execFileAsync = promisify(execFile);
// Records over two pages, which hold every awkward value of the first test: the values, not their number, are the point.
const sandbox = useSandbox({ records: 150 });
// Only its first request is waited for, before Ctrl-C.
const slowSandbox = useSandbox({ records: 150, latencyMs: 1500 });
let served: FeeScheduleResult[];
const duckdb = useDuckDB();
const dir = tempDir('mkt-exports-');

beforeAll(async () => {
  served = (await getAllResults(sandbox.current)).records;
});

const env = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });

async function exportTo(file: string, extra: string[] = []): Promise<string> {
  const path = join(dir, file);
  const run = await runInProcess(['results', '--all', '-o', path, ...extra], { env: env() });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('');
  return path;
}

/** Microseconds since the epoch of a service timestamp; one without an offset is read as UTC, as DuckDB reads a TIMESTAMP. */
function epochMicros(text: string): bigint {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d:\d\d)?$/.exec(text);
  if (!match) throw new Error(`not a timestamp: ${text}`);
  const millis = Date.parse(`${match[1]}${match[3] ?? 'Z'}`);
  return BigInt(millis) * 1000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}

describe('every format holds exactly what the sandbox served', () => {
  it('the data has the awkward values these tests are for', () => {
    const texts = served.flatMap((record) => Object.values(record)).filter((value): value is string => typeof value === 'string');
    for (const pattern of [/,/, /"/, /\r\n/, /[^\r]\n/, /\t/, /\p{Extended_Pictographic}/u, /[\uFF01-\uFF5E]/]) {
      expect(texts.some((text) => pattern.test(text)), String(pattern)).toBe(true);
    }
    expect(texts).toContain('');
    expect(served.some((record) => Object.values(record).includes(null))).toBe(true);
  });

  it('json (inferred from .json)', async () => {
    const path = await exportTo('all.json');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(served);
  });

  it.each(['all.ndjson', 'all.jsonl'])('ndjson (inferred from %s)', async (file) => {
    const path = await exportTo(file);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(served);
  });

  it('csv (inferred from .csv), read by DuckDB with allow_quoted_nulls=false', async () => {
    const path = await exportTo('all.csv');
    const rows = await duckdb.current.rows(
      `SELECT * FROM read_csv($1, header=true, all_varchar=true, allow_quoted_nulls=false, delim=',', quote='"', escape='"')`,
      [path],
    );
    expect(rows).toHaveLength(served.length);
    expect(Object.keys(rows[0] as object)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    rows.forEach((row, index) => expect(row).toEqual(served[index]));
  });

  it('parquet (inferred from .parquet), read by DuckDB, with timestamp types and microseconds', async () => {
    const path = await exportTo('all.parquet');
    const types = Object.fromEntries(
      (await duckdb.current.rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [path])).map((row) => [
        row.column_name,
        row.column_type,
      ]),
    );
    expect(Object.keys(types)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    expect(types.scraped_time).toBe('TIMESTAMP WITH TIME ZONE');
    expect(types.created_on).toBe('TIMESTAMP');
    const strings = FEE_SCHEDULE_RESULT_FIELD_NAMES.filter((name) => name !== 'scraped_time' && name !== 'created_on');
    const rows = await duckdb.current.rows(
      `SELECT ${strings.join(', ')}, epoch_us(scraped_time) AS scraped_time, epoch_us(created_on) AS created_on FROM read_parquet($1)`,
      [path],
    );
    expect(rows).toHaveLength(served.length);
    rows.forEach((row, index) => {
      const record = served[index] as FeeScheduleResult;
      expect(row).toEqual({ ...record, scraped_time: epochMicros(record.scraped_time), created_on: epochMicros(record.created_on) });
    });
  });

  it('table (off a terminal: every row and every character, no colour)', async () => {
    const run = await runInProcess(['results', '--all', '-f', 'table', '--columns', 'id,fee_amount'], { env: env() });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(served.length + 4);
    expect(run.stdout).not.toContain('\u001b[');
    for (const record of served) expect(run.stdout).toContain(`│ ${record.id} │ ${record.fee_amount}`);
  });
});

describe('--columns picks and orders fields in every format', () => {
  const columns = ['fee_amount', 'id', 'created_on'];
  const picked = () => served.slice(0, 20).map((record) => ({ fee_amount: record.fee_amount, id: record.id, created_on: record.created_on }));
  const run = (format: string) => runInProcess(['results', '-f', format, '--columns', columns.join(',')], { env: env() });

  it('json', async () => {
    const result = await run('json');
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout);
    expect(records).toEqual(picked());
    expect(Object.keys(records[0])).toEqual(columns);
  });

  it('ndjson', async () => {
    const result = await run('ndjson');
    expect(result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(picked());
  });

  it('csv', async () => {
    const result = await run('csv');
    expect(result.stdout.split('\r\n')[0]).toBe(columns.join(','));
    expect(result.stdout.split('\r\n')[1]).toBe(`${picked()[0]?.fee_amount.includes(',') ? `"${picked()[0]?.fee_amount}"` : picked()[0]?.fee_amount},${picked()[0]?.id},${picked()[0]?.created_on}`);
  });

  it('parquet', async () => {
    const path = join(dir, 'columns.parquet');
    const result = await runInProcess(['results', '--columns', columns.join(','), '-o', path], { env: env() });
    expect(result.code).toBe(0);
    const described = await duckdb.current.rows(`SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [path]);
    expect(described.map((row) => row.column_name)).toEqual(columns);
  });

  it('table', async () => {
    const result = await run('table');
    // Under the table's short labels (issue 39, point 4); CSV and JSON keep the field names.
    expect(result.stdout.split('\n')[1]).toMatch(/^│ Amount +│ ID +│ Created +│$/);
  });

  it('rejects an unknown field before sending anything, listing the fields', async () => {
    const result = await runInProcess(['results', '--columns', 'id,fee_amout'], { env: { MKT_BASE_URL: 'http://127.0.0.1:9', MKT_API_KEY: 'k' } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('fee_amout');
    expect(result.stderr).toContain('fee_amount');
  });
});

describe('which format', () => {
  it('--format outranks the extension, which outranks the profile, which outranks the terminal rule', async () => {
    const configDir = tempConfigDir();
    const withProfile = { ...env(), MKT_CONFIG_DIR: configDir };
    expect((await runInProcess(['config', 'set', 'format', 'csv'], { env: withProfile })).code).toBe(0);

    const stdout = await runInProcess(['results', '--limit', '1'], { env: withProfile });
    expect(stdout.stdout.startsWith('id,exchange_name,')).toBe(true);

    const parquetPath = join(dir, 'profile.parquet');
    expect((await runInProcess(['results', '--limit', '1', '-o', parquetPath], { env: withProfile })).code).toBe(0);
    expect(readFileSync(parquetPath).subarray(0, 4).toString()).toBe('PAR1');

    const unknownExtension = join(dir, 'profile.txt');
    await runInProcess(['results', '--limit', '1', '-o', unknownExtension], { env: withProfile });
    expect(readFileSync(unknownExtension, 'utf8').startsWith('id,exchange_name,')).toBe(true);

    const forced = join(dir, 'forced.csv');
    await runInProcess(['results', '--limit', '1', '-o', forced, '--format', 'ndjson'], { env: withProfile });
    expect(JSON.parse(readFileSync(forced, 'utf8'))).toMatchObject({ id: served[0]?.id });
  });
});

describe('files appear whole or not at all', () => {
  it('Ctrl-C during an export leaves the previous file untouched and no temporary file', async () => {
    const exportDir = tempDir('mkt-interrupt-');
    const path = join(exportDir, 'fees.csv');
    writeFileSync(path, 'yesterday\n');
    const mkt = spawnMkt(['results', '--all', '-o', path, '--verbose'], {
      env: { MKT_BASE_URL: slowSandbox.current.url, MKT_API_KEY: slowSandbox.current.keys.api_key },
    });
    await mkt.stderrContains('→ GET');
    mkt.child.kill('SIGINT');
    const run = await mkt.result;
    expect(run.code, run.stderr).toBe(130);
    expect(readFileSync(path, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(exportDir)).toEqual(['fees.csv']);
  });

  it('a failed export leaves no file', async () => {
    const path = join(dir, 'never.csv');
    const run = await runInProcess(['results', '--all', '-o', path, '--retries', '0'], {
      env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: 'wrong-key-123' },
    });
    expect(run.code).toBe(3);
    expect(existsSync(path)).toBe(false);
  });
});

describe('pipes', () => {
  it('a reader that goes away (| head) ends the export quietly with exit 0', async () => {
    // Asynchronously: the sandbox answering mkt runs in this process.
    const { stdout, stderr } = await execFileAsync(
      'bash',
      ['--norc', '--noprofile', '-c', `set -o pipefail; "${process.execPath}" "${MKT_BIN}" results --all -f ndjson | head -n 2`],
      { env: { ...process.env, ...env(), MKT_CONFIG_DIR: tempConfigDir() }, encoding: 'utf8' },
    );
    expect(stderr).toBe('');
    expect(stdout.trimEnd().split('\n')).toHaveLength(2);
  });
});
