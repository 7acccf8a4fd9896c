import { gzipSync } from 'node:zlib';
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { MalformedResponseError, MktError } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import type { Column, Exporter } from './exporter.js';
import { jsonText, valueText } from './flatten.js';
import { ChunkSink } from './sink.js';
import { tabulate } from './tabular.js';
import { parseDateDays, parseTimestampMicros } from '../core/timestamps.js';

/**
 * Rows per row group: what is held in memory at once, and what a reader skips by statistics;
 * larger groups make a slightly smaller file for a higher peak (docs/performance.md, "Memory").
 */
export const PARQUET_ROW_GROUP_ROWS = 10_000;

type ParquetValue = string | number | boolean | bigint | null;

function schemaElement({ name, kind, nullable }: Column): SchemaElement {
  const repetition_type = nullable ? 'OPTIONAL' : 'REQUIRED';
  switch (kind) {
    case 'string':
    case 'json':
      return { name, repetition_type, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'number':
      return { name, repetition_type, type: 'DOUBLE' };
    case 'integer':
      return { name, repetition_type, type: 'INT64' };
    case 'unsigned_integer':
      // The converted type alone, as DuckDB writes a UBIGINT: a logical INTEGER type made a file DuckDB could not read.
      return { name, repetition_type, type: 'INT64', converted_type: 'UINT_64' };
    case 'boolean':
      return { name, repetition_type, type: 'BOOLEAN' };
    case 'date':
      return { name, repetition_type, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'timestamp_utc':
      return {
        name,
        repetition_type,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MICROS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
      };
    case 'timestamp_local':
      // No converted type: TIMESTAMP_MICROS would tell older readers the value is UTC.
      return { name, repetition_type, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } };
  }
}

type Converter = (value: unknown, row: number) => ParquetValue;

/** How many distinct strings a column remembers the value of (see converterFor). */
const REMEMBERED_STRINGS = 1024;

/**
 * Turns a cell into the column's physical value, or says which row (counted from 1) broke the
 * schema.
 *
 * Most columns repeat a few values (venues, categories, a version's timestamps), so the first
 * REMEMBERED_STRINGS distinct strings of a column are converted once and their copies take that
 * value: each page's own copy then dies young instead of living in the row group until it is
 * encoded, which spares the garbage collector and the peak (docs/performance.md).
 */
function converterFor({ name, kind, nullable }: Column): Converter {
  const fail = (row: number, problem: string): never => {
    throw new MalformedResponseError(`cannot write row ${row} to Parquet: ${name} ${problem}`);
  };
  const convert = (value: unknown, row: number): ParquetValue => {
    switch (kind) {
      case 'string':
        return valueText(value);
      case 'json':
        return jsonText(value);
      case 'number':
        // A bigint (a HUGEINT of mkt sql) is a DOUBLE here, as DuckDB's own Parquet writer has it.
        return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : fail(row, `is not a number: ${JSON.stringify(value)}`);
      case 'integer':
      case 'unsigned_integer':
        return typeof value === 'bigint' ? value : Number.isSafeInteger(value) ? BigInt(value as number) : fail(row, `is not a whole number: ${JSON.stringify(value)}`);
      case 'boolean':
        return typeof value === 'boolean' ? value : fail(row, `is not true or false: ${JSON.stringify(value)}`);
      case 'date':
        return (typeof value === 'string' ? parseDateDays(value) : undefined) ?? fail(row, `is not a date (YYYY-MM-DD): ${JSON.stringify(value)}`);
      case 'timestamp_utc':
      case 'timestamp_local':
        return (typeof value === 'string' ? parseTimestampMicros(value) : undefined)
          ?? fail(row, `is not an ISO 8601 timestamp: ${JSON.stringify(value)}`);
    }
  };
  const remembered = new Map<string, ParquetValue>();
  return (value, row) => {
    if (typeof value === 'string') {
      let converted = remembered.get(value);
      if (converted === undefined) {
        converted = convert(value, row);
        if (remembered.size < REMEMBERED_STRINGS) remembered.set(value, converted);
      }
      return converted;
    }
    if (value !== null && value !== undefined) return convert(value, row);
    return nullable ? null : fail(row, 'is null, and the service document says it never is');
  };
}

/**
 * Pages are compressed with GZIP at level 1, by Node's zlib, handed to hyparquet-writer through
 * its `compressors` option: its own Snappy is JavaScript, slower than zlib for a larger file.
 * DuckDB, Spark, pyarrow and polars read GZIP as they read Snappy (docs/formats.md).
 */
const gzip = (bytes: Uint8Array): Uint8Array => gzipSync(bytes, { level: 1 });

/**
 * hyparquet-writer's ByteWriter, extended with a flush as its own `fileWriter` is: ParquetWriter
 * calls `flush` after each row group and `finish` once the footer is written, and each hands what
 * was written since to the sink. The sink keeps the chunk it is given, so a flush starts a fresh
 * buffer as large rather than writing over it. `offset`, from which ParquetWriter takes the
 * positions it records in the footer, still counts from the start of the file.
 */
export class SinkWriter extends ByteWriter {
  constructor(private readonly sink: ChunkSink) {
    super(1 << 20);
  }

  async flush(): Promise<void> {
    if (this.index === 0) return;
    const written = this.getBytes();
    this.buffer = new ArrayBuffer(this.buffer.byteLength);
    this.view = new DataView(this.buffer);
    this.index = 0;
    await this.sink.write(written);
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

/**
 * `parquet`: one column per field, typed by its kind, REQUIRED unless nullable; written one
 * bounded row group at a time with hyparquet-writer's incremental ParquetWriter, each group
 * handed to the stream before the next is read, so memory does not grow with the records.
 * Column chunk statistics (min, max, null count), by which readers skip row groups, are
 * hyparquet-writer's own: UTF8 bounds in UTF-8 byte order.
 */
export const parquetExporter: Exporter = {
  async write(dataset, target) {
    const { columns, batches, rowsOf } = await tabulate(dataset);
    if (columns.length === 0) {
      throw new MktError('nothing to write as Parquet: the response has no fields', { hint: 'Use --format json.' });
    }
    // Rows go straight into one array per column: no object per row, little garbage.
    const fields = columns.map((column) => ({ name: column.name, convert: converterFor(column), values: [] as ParquetValue[] }));
    const sink = new ChunkSink(target.stream);
    try {
      const writer = new ParquetWriter({
        writer: new SinkWriter(sink),
        schema: [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)],
        codec: 'GZIP',
        compressors: { GZIP: gzip },
        statistics: true,
        createdBy: `mkt version ${VERSION}`,
      });
      const groupRows = target.parquetRowGroupRows ?? PARQUET_ROW_GROUP_ROWS;
      let size = 0;
      let row = 0;
      const writeGroup = async (): Promise<void> => {
        const columnData = fields.map(({ name, values }) => ({ name, data: values }));
        await writer.write({ columnData, rowGroupSize: size });
        for (const field of fields) field.values = [];
        size = 0;
      };
      for await (const records of batches) {
        for (const record of records) {
          for (const flat of rowsOf(record)) {
            row++;
            for (const field of fields) field.values.push(field.convert(flat[field.name], row));
            if (++size === groupRows) await writeGroup();
          }
        }
      }
      if (size > 0) await writeGroup();
      await writer.finish();
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
