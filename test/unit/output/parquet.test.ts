import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { ByteWriter } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_2026_FIELDS, FEE_SCHEDULE_RESULT_FIELDS, FEE_SCHEDULE_RESULT_FIELD_NAMES, resultFieldsOf } from '../../../src/api/fields.js';
import type { FeeScheduleResult } from '../../../src/api/types.js';
import { MalformedResponseError } from '../../../src/core/errors.js';
import type { Column } from '../../../src/output/exporter.js';
import { PARQUET_ROW_GROUP_ROWS, SinkWriter } from '../../../src/output/parquet.js';
import { ChunkSink } from '../../../src/output/sink.js';
import { writeDataset } from '../../../src/output/write.js';
import { awkwardResults, FEES, from, MemoryStream, options, ORDER_TYPES, useTempDir } from './helpers.js';
import { useDuckDB } from '../../helpers/duckdb.js';

async function writeResults(path: string, records: readonly FeeScheduleResult[], select?: string[], parquetRowGroupRows?: number): Promise<void> {
  await writeDataset({ shape: 'list', batches: from(records), columns: FEE_SCHEDULE_RESULT_FIELDS, select }, options({ outputPath: path, parquetRowGroupRows }));
}

/** Rows of a row group where several groups are the point, not their size, which `bounds row groups` checks. */
const GROUP_ROWS = 100;

/** The rows of a file, read by hyparquet, which reads GZIP through a decompressor it is given. */
async function readBack(path: string, columns?: string[]): Promise<Record<string, unknown>[]> {
  const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
  return parquetReadObjects({ file: await asyncBufferFromFile(path), columns, compressors });
}

const duckdb = useDuckDB();
const tempDirs = useTempDir();

describe('parquet', () => {
  it('writes 2026 records in their column set, declared by the first record: page_number a whole number, relationships its JSON text', async () => {
    const path = join(tempDirs.current.path, 'records-2026.parquet');
    const record = (n: number) => Object.fromEntries(FEE_SCHEDULE_RESULT_2026_FIELDS.map((field) => [field.name, field.kind === 'timestamp_utc' ? '2026-02-26T00:00:50.839337Z' : field.nullable ? null : `${field.name} ${n}`]));
    const records = [
      { ...record(1), record_id: 'r1', page_number: 17, relationships: { footnotes: [{ text: 'One.' }], definitions: [] } },
      { ...record(2), record_id: 'r2', page_number: null, relationships: null },
    ];
    await writeDataset({ shape: 'list', batches: from(records), columns: resultFieldsOf }, options({ outputPath: path }));
    const described = await duckdb.current.rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [path]);
    expect(described.map((column) => column.column_name)).toEqual(FEE_SCHEDULE_RESULT_2026_FIELDS.map((field) => field.name));
    expect(described.filter((column) => ['page_number', 'relationships'].includes(column.column_name as string))).toEqual([
      { column_name: 'page_number', column_type: 'BIGINT' },
      { column_name: 'relationships', column_type: 'VARCHAR' },
    ]);
    expect(await duckdb.current.rows('SELECT record_id, page_number, relationships FROM read_parquet($1)', [path])).toEqual([
      { record_id: 'r1', page_number: 17n, relationships: '{"footnotes":[{"text":"One."}],"definitions":[]}' },
      { record_id: 'r2', page_number: null, relationships: null },
    ]);
  });

  it('refuses a page_number that is not a whole number, naming the row', async () => {
    const path = join(tempDirs.current.path, 'bad-page.parquet');
    const record = { record_id: 'r1', scraped_time: '2026-02-26T00:00:50.839337Z', page_number: 1.5 };
    const written = writeDataset({ shape: 'list', batches: from([record]), columns: resultFieldsOf, select: ['record_id', 'page_number'] }, options({ outputPath: path }));
    await expect(written).rejects.toThrow('cannot write row 1 to Parquet: page_number is not a whole number: 1.5');
  });

  it('round-trips awkward records cell by cell through DuckDB, with typed timestamps to the microsecond', async () => {
    const records = awkwardResults();
    const path = join(tempDirs.current.path, 'results.parquet');
    await writeResults(path, records);

    const described = await duckdb.current.rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [path]);
    expect(described.map((column) => column.column_name)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    const types = Object.fromEntries(described.map((column) => [column.column_name, column.column_type]));
    expect(types.scraped_time).toBe('TIMESTAMP WITH TIME ZONE');
    expect(types.created_on).toBe('TIMESTAMP');
    expect(types.fee_notes).toBe('VARCHAR');

    const strings = FEE_SCHEDULE_RESULT_FIELD_NAMES.filter((name) => name !== 'scraped_time' && name !== 'created_on');
    const rows = await duckdb.current.rows(
      `SELECT ${strings.join(', ')}, epoch_us(scraped_time) AS scraped_us, epoch_us(created_on) AS created_us FROM read_parquet($1)`,
      [path],
    );
    expect(rows).toHaveLength(records.length);
    // DuckDB parses the service's text itself: an independent reading of the same instants, all in one query.
    const values = records.map((_, index) => `(${index}, $${2 * index + 1}, $${2 * index + 2})`).join(', ');
    const instants = await duckdb.current.rows(
      `SELECT epoch_us(CAST(scraped AS TIMESTAMPTZ)) AS scraped_us, epoch_us(CAST(created AS TIMESTAMP)) AS created_us FROM (VALUES ${values}) AS t(n, scraped, created) ORDER BY n`,
      records.flatMap((record) => [record.scraped_time, record.created_on]),
    );
    expect(instants).toHaveLength(records.length);
    for (const [index, record] of records.entries()) {
      const row = rows[index] ?? {};
      for (const name of strings) expect(row[name], `${name} of record ${index}`).toBe(record[name]);
      expect({ scraped_us: row.scraped_us, created_us: row.created_us }, `times of record ${index}`).toEqual(instants[index]);
    }
    expect(rows.some((row) => row.scraped_us !== undefined && (row.scraped_us as bigint) % 1000n !== 0n)).toBe(true);
  });

  it('declares UTF8 strings, OPTIONAL exactly where nullable, and microsecond timestamps UTC-adjusted or not', async () => {
    const path = join(tempDirs.current.path, 'schema.parquet');
    await writeResults(path, awkwardResults(3));
    const schema = await duckdb.current.rows(
      `SELECT name, type, converted_type, repetition_type, logical_type FROM parquet_schema($1) WHERE name <> 'root' AND name <> 'duckdb_schema'`,
      [path],
    );
    expect(schema.map((element) => element.name)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    for (const field of FEE_SCHEDULE_RESULT_FIELDS) {
      const element = schema.find((candidate) => candidate.name === field.name) ?? {};
      expect(element.repetition_type, field.name).toBe(field.nullable ? 'OPTIONAL' : 'REQUIRED');
      if (field.kind === 'string') expect([element.type, element.converted_type], field.name).toEqual(['BYTE_ARRAY', 'UTF8']);
    }
    const scraped = schema.find((element) => element.name === 'scraped_time') ?? {};
    const created = schema.find((element) => element.name === 'created_on') ?? {};
    expect(scraped.type).toBe('INT64');
    expect(String(scraped.logical_type)).toMatch(/^TimestampType\(isAdjustedToUTC=1, .*MICROS=MicroSeconds\(\)/);
    expect(scraped.converted_type).toBe('TIMESTAMP_MICROS');
    expect(created.type).toBe('INT64');
    expect(String(created.logical_type)).toMatch(/^TimestampType\(isAdjustedToUTC=0, .*MICROS=MicroSeconds\(\)/);
    expect(created.converted_type).toBeNull();
  });

  it('reads back the same through hyparquet', async () => {
    const records = awkwardResults();
    const path = join(tempDirs.current.path, 'results.parquet');
    await writeResults(path, records);
    const rows = await readBack(path);
    expect(rows).toHaveLength(records.length);
    for (const [index, record] of records.entries()) {
      const row = rows[index] ?? {};
      for (const field of FEE_SCHEDULE_RESULT_FIELDS) {
        if (field.kind === 'string') expect(row[field.name], field.name).toBe(record[field.name]);
      }
      expect((row.scraped_time as Date).getTime()).toBe(Date.parse(record.scraped_time));
    }
  });

  it('reads back columns that repeat a few values and columns of more distinct values than it remembers', async () => {
    const [template] = awkwardResults(1) as [FeeScheduleResult];
    // Each note twice, 1,100 of them: more than the 1,024 a column remembers (src/output/parquet.ts).
    const records = Array.from({ length: 2200 }, (_, index) => ({
      ...template,
      id: `id ${index}`,
      fee_notes: index % 7 === 0 ? null : `note ${index % 1100} é`,
      exchange_name: ['NYSE', 'ＣＢＯＥ', '🚀'][index % 3] as string,
      scraped_time: `2025-06-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00.${String(index).padStart(6, '0')}+00:00`,
    }));
    const path = join(tempDirs.current.path, 'repeats.parquet');
    // The columns read back alone: the template's others, one value each, would show nothing more.
    const columns = ['id', 'fee_notes', 'exchange_name', 'scraped_time'];
    await writeResults(path, records, columns);
    const rows = await readBack(path, columns);
    expect(rows.map((row) => [row.id, row.fee_notes, row.exchange_name, (row.scraped_time as Date).toISOString()])).toEqual(
      records.map((record) => [record.id, record.fee_notes, record.exchange_name, new Date(record.scraped_time).toISOString()]),
    );
  });

  it('keeps DuckDB filters right on strings mixing ASCII, fullwidth and emoji (UTF-8 statistics)', async () => {
    // Row groups of distinct ranges, so that wrong min/max statistics would skip the wrong ones.
    const values = ['apple', 'ｆ', '🚀', 'ｆｕｌｌ width', '🚀 rocket', 'zebra', 'é', 'Ｚ', '😀', '\uFFFD'];
    const count = GROUP_ROWS * 2 + GROUP_ROWS / 2;
    const noteOf = (index: number): string => values[(index < GROUP_ROWS ? index % 4 : 4 + (index % 6)) % values.length] as string;
    const template = awkwardResults(1)[0] as FeeScheduleResult;
    const records = Array.from({ length: count }, (_, index) => ({ ...template, fee_notes: noteOf(index) }));
    const path = join(tempDirs.current.path, 'unicode.parquet');
    await writeResults(path, records, ['id', 'fee_notes'], GROUP_ROWS);

    const stats = await duckdb.current.rows(
      `SELECT row_group_id AS rowGroup, stats_min_value AS min, stats_max_value AS max FROM parquet_metadata($1) WHERE path_in_schema = 'fee_notes' ORDER BY row_group_id`,
      [path],
    );
    expect(stats).toHaveLength(3);
    for (const { rowGroup, min, max } of stats) {
      const start = Number(rowGroup) * GROUP_ROWS;
      const group = records.slice(start, start + GROUP_ROWS).map((record) => Buffer.from(record.fee_notes ?? ''));
      const sorted = group.sort(Buffer.compare);
      // Bounds in UTF-8 byte order: min at or below the smallest value, max at or above the largest.
      expect(Buffer.compare(Buffer.from(String(min)), sorted[0] as Buffer), `min of group ${rowGroup}`).toBeLessThanOrEqual(0);
      expect(Buffer.compare(Buffer.from(String(max)), sorted.at(-1) as Buffer), `max of group ${rowGroup}`).toBeGreaterThanOrEqual(0);
    }
    for (const value of values) {
      const expected = records.filter((record) => record.fee_notes === value).length;
      const [equal] = await duckdb.current.rows(`SELECT count(*) AS n FROM read_parquet($1) WHERE fee_notes = $2`, [path, value]);
      expect(Number(equal?.n), `= ${value}`).toBe(expected);
      const above = records.filter((record) => Buffer.compare(Buffer.from(record.fee_notes ?? ''), Buffer.from(value)) > 0).length;
      const [greater] = await duckdb.current.rows(`SELECT count(*) AS n FROM read_parquet($1) WHERE fee_notes > $2`, [path, value]);
      expect(Number(greater?.n), `> ${value}`).toBe(above);
    }
  });

  it('answers right for the two-row file that broke parquetjs-lite', async () => {
    const template = awkwardResults(1)[0] as FeeScheduleResult;
    const path = join(tempDirs.current.path, 'two.parquet');
    await writeResults(path, [{ ...template, fee_notes: 'ｆ' }, { ...template, fee_notes: '🚀' }], ['fee_notes']);
    for (const value of ['ｆ', '🚀']) {
      const [row] = await duckdb.current.rows(`SELECT count(*) AS n FROM read_parquet($1) WHERE fee_notes = $2`, [path, value]);
      expect(Number(row?.n), value).toBe(1);
    }
  });

  it('keeps DuckDB filters right on numbers, booleans, timestamps and nulls, each row group with its statistics', async () => {
    interface Row {
      amount: number | null;
      active: boolean | null;
      scraped: string;
      created: string | null;
    }
    const columns: Column[] = [
      { name: 'amount', kind: 'number', nullable: true },
      { name: 'active', kind: 'boolean', nullable: true },
      { name: 'scraped', kind: 'timestamp_utc', nullable: false },
      { name: 'created', kind: 'timestamp_local', nullable: true },
    ];
    // Three row groups of distinct ranges, so that wrong statistics would skip the wrong ones:
    // signed zeros, a group of only nulls, a group of only true and one of only false.
    const day = (index: number): string => String(1 + (index % 28)).padStart(2, '0');
    const rowOf = (index: number): Row => {
      const group = Math.floor(index / GROUP_ROWS);
      const pick = <T>(values: readonly T[]): T => values[index % values.length] as T;
      if (group === 0) {
        return { amount: pick([-50, -0, -12.5, null, -0.001]), active: true, scraped: `2025-01-${day(index)}T08:00:00.000001+00:00`, created: `2025-01-${day(index)}T09:30:00` };
      }
      if (group === 1) {
        return { amount: pick([0.25, 100, 42, 0, null]), active: false, scraped: `2025-06-${day(index)}T23:30:00-02:00`, created: pick([null, `2024-06-${day(index)}T00:00:00.5`]) };
      }
      return { amount: null, active: pick([true, false, null]), scraped: `2024-12-${day(index)}T12:00:00Z`, created: `2026-02-${day(index)}T12:00:00` };
    };
    const rows = Array.from({ length: GROUP_ROWS * 2 + GROUP_ROWS / 2 }, (_, index) => rowOf(index));
    const path = join(tempDirs.current.path, 'kinds.parquet');
    await writeDataset({ shape: 'list', batches: from(rows), columns }, options({ outputPath: path, parquetRowGroupRows: GROUP_ROWS }));

    // Every column chunk carries statistics, with the group's count of nulls.
    const chunks = await duckdb.current.rows(
      `SELECT row_group_id AS rowGroup, path_in_schema AS name, stats_null_count AS nulls FROM parquet_metadata($1) ORDER BY row_group_id, column_id`,
      [path],
    );
    expect(chunks.map(({ rowGroup, name, nulls }) => [Number(rowGroup), name, nulls === null ? null : Number(nulls)])).toEqual(
      [0, 1, 2].flatMap((group) => {
        const slice = rows.slice(group * GROUP_ROWS, (group + 1) * GROUP_ROWS);
        return columns.map(({ name }) => [group, name, slice.filter((row) => row[name as keyof Row] === null).length]);
      }),
    );

    const utc = (text: string): number => Date.parse(text);
    const local = (text: string): number => Date.parse(`${text}Z`);
    const filters: { where: string; value?: unknown; expected: (row: Row) => boolean }[] = [
      { where: 'amount > $2', value: 40, expected: (row) => row.amount !== null && row.amount > 40 },
      { where: 'amount < $2', value: -20, expected: (row) => row.amount !== null && row.amount < -20 },
      { where: 'amount > $2', value: 0, expected: (row) => row.amount !== null && row.amount > 0 },
      { where: 'amount >= $2', value: 0, expected: (row) => row.amount !== null && row.amount >= 0 },
      { where: 'amount = $2', value: 0, expected: (row) => row.amount === 0 },
      { where: 'amount < $2', value: 0, expected: (row) => row.amount !== null && row.amount < 0 },
      { where: 'amount IS NULL', expected: (row) => row.amount === null },
      { where: 'active = $2', value: true, expected: (row) => row.active === true },
      { where: 'active = $2', value: false, expected: (row) => row.active === false },
      { where: 'active IS NULL', expected: (row) => row.active === null },
      { where: 'scraped > CAST($2 AS TIMESTAMPTZ)', value: '2025-03-01T00:00:00Z', expected: (row) => utc(row.scraped) > utc('2025-03-01T00:00:00Z') },
      { where: 'scraped < CAST($2 AS TIMESTAMPTZ)', value: '2025-01-15T00:00:00Z', expected: (row) => utc(row.scraped) < utc('2025-01-15T00:00:00Z') },
      { where: 'scraped = CAST($2 AS TIMESTAMPTZ)', value: '2025-06-03T01:30:00Z', expected: (row) => utc(row.scraped) === utc('2025-06-03T01:30:00Z') },
      { where: 'created < CAST($2 AS TIMESTAMP)', value: '2025-01-10T00:00:00', expected: (row) => row.created !== null && local(row.created) < local('2025-01-10T00:00:00') },
      { where: 'created > CAST($2 AS TIMESTAMP)', value: '2025-12-31T00:00:00', expected: (row) => row.created !== null && local(row.created) > local('2025-12-31T00:00:00') },
      { where: 'created IS NULL', expected: (row) => row.created === null },
    ];
    for (const { where, value, expected } of filters) {
      const [count] = await duckdb.current.rows(`SELECT count(*) AS n FROM read_parquet($1) WHERE ${where}`, value === undefined ? [path] : [path, value]);
      const wanted = rows.filter(expected).length;
      expect(wanted, `${where} with ${String(value)} matches rows in the test`).toBeGreaterThan(0);
      expect(Number(count?.n), `${where} with ${String(value)}`).toBe(wanted);
    }
  });

  it('bounds row groups, and compresses every column of each with GZIP', async () => {
    const template = awkwardResults(1)[0] as FeeScheduleResult;
    const path = join(tempDirs.current.path, 'groups.parquet');
    await writeResults(path, Array.from({ length: PARQUET_ROW_GROUP_ROWS + 1 }, () => template), ['id', 'fee_notes']);
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    expect(metadata.row_groups.map((group) => Number(group.num_rows))).toEqual([PARQUET_ROW_GROUP_ROWS, 1]);
    expect(metadata.row_groups.flatMap((group) => group.columns.map((column) => column.meta_data?.codec))).toEqual(['GZIP', 'GZIP', 'GZIP', 'GZIP']);
  });

  it('writes through hyparquet-writer\'s ByteWriter, each flush one chunk to the stream, offsets counted from the start', async () => {
    const stream = new MemoryStream();
    const sink = new ChunkSink(stream);
    const writer = new SinkWriter(sink);
    expect(writer).toBeInstanceOf(ByteWriter);
    writer.appendBytes(new Uint8Array([1, 2, 3]));
    await writer.flush();
    await writer.flush();
    writer.appendUint32(0x07060504);
    expect(writer.offset).toBe(7);
    await writer.finish();
    sink.detach();
    expect(stream.chunks.map((chunk) => [...chunk])).toEqual([[1, 2, 3], [4, 5, 6, 7]]);
  });

  it('makes a valid file with the schema when there are no records', async () => {
    const path = join(tempDirs.current.path, 'empty.parquet');
    const written = await writeDataset(
      { shape: 'list', batches: from([]), columns: FEE_SCHEDULE_RESULT_FIELDS },
      options({ outputPath: path }),
    );
    expect(written.records).toBe(0);
    const [count] = await duckdb.current.rows(`SELECT count(*) AS n FROM read_parquet($1)`, [path]);
    expect(Number(count?.n)).toBe(0);
    const described = await duckdb.current.rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [path]);
    expect(described.map((column) => column.column_name)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    expect(described.find((column) => column.column_name === 'scraped_time')?.column_type).toBe('TIMESTAMP WITH TIME ZONE');
  });

  it('selects and orders --columns', async () => {
    const records = awkwardResults(4);
    const path = join(tempDirs.current.path, 'some.parquet');
    await writeResults(path, records, ['created_on', 'fee_notes']);
    const rows = await duckdb.current.rows(`SELECT fee_notes, CAST(created_on AS VARCHAR) AS created FROM read_parquet($1)`, [path]);
    const described = await duckdb.current.rows(`SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [path]);
    expect(described.map((column) => column.column_name)).toEqual(['created_on', 'fee_notes']);
    expect(rows.map((row) => row.fee_notes)).toEqual(records.map((record) => record.fee_notes));
  });

  it('types the flattened columns of an exchange object from its values', async () => {
    const path = join(tempDirs.current.path, 'order-types.parquet');
    await writeDataset({ shape: 'object', batches: from([ORDER_TYPES]) }, options({ outputPath: path }));
    const described = await duckdb.current.rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($1))`, [path]);
    expect(described).toEqual([
      { column_name: 'exchange', column_type: 'VARCHAR' },
      { column_name: 'order_types.type', column_type: 'VARCHAR' },
      { column_name: 'order_types.description', column_type: 'VARCHAR' },
      { column_name: 'order_types.supported', column_type: 'BOOLEAN' },
      { column_name: 'last_updated', column_type: 'VARCHAR' },
    ]);
    const rows = await duckdb.current.rows(`SELECT * FROM read_parquet($1)`, [path]);
    expect(rows.map((row) => [row['order_types.type'], row['order_types.supported']])).toEqual([
      ['LIMIT', true],
      ['MARKET', true],
      ['FOK', false],
    ]);

    const feesPath = join(tempDirs.current.path, 'fees.parquet');
    await writeDataset({ shape: 'object', batches: from([FEES]) }, options({ outputPath: feesPath }));
    const [fees] = await duckdb.current.rows(`SELECT "fee_schedule.maker_fee" AS maker, typeof("fee_schedule.maker_fee") AS kind FROM read_parquet($1)`, [feesPath]);
    expect(fees).toEqual({ maker: -0.002, kind: 'DOUBLE' });
  });

  it('refuses a record that breaks the document, naming the field, and leaves no file', async () => {
    const [record] = awkwardResults(1);
    const path = join(tempDirs.current.path, 'broken.parquet');
    const broken = { ...record, scraped_time: 'yesterday' };
    await expect(writeResults(path, [broken as FeeScheduleResult])).rejects.toThrow(MalformedResponseError);
    await expect(writeResults(path, [{ ...record, id: null } as unknown as FeeScheduleResult])).rejects.toThrow(/row 1 to Parquet: id is null/);
    await expect(writeResults(path, [{ ...record, fee_amount: 1, created_on: 'émigré' } as unknown as FeeScheduleResult])).rejects.toThrow(
      'cannot write row 1 to Parquet: created_on is not an ISO 8601 timestamp: "émigré"',
    );
    expect(await tempDirs.current.files()).toEqual([]);
  });

  it('starts with the Parquet magic bytes when written to a pipe', async () => {
    const stdout = new MemoryStream(false);
    await writeDataset({ shape: 'list', batches: from(awkwardResults(2)), columns: FEE_SCHEDULE_RESULT_FIELDS }, options({ format: 'parquet', stdout }));
    const bytes = Buffer.concat(stdout.chunks);
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.subarray(-4).toString()).toBe('PAR1');
    const path = join(tempDirs.current.path, 'piped.parquet');
    const handle = await open(path, 'w');
    await handle.writeFile(bytes);
    await handle.close();
    const [count] = await duckdb.current.rows(`SELECT count(*) AS n FROM read_parquet($1)`, [path]);
    expect(Number(count?.n)).toBe(2);
  });
});
