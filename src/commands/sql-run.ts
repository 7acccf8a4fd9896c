import type {
  DuckDBIntervalValue,
  DuckDBResult,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampValue,
  DuckDBType,
  DuckDBTypeId,
  DuckDBValue,
  StatementType,
} from '@duckdb/node-api';
import type { Context } from './context.js';
import { MktError, UsageError } from '../core/errors.js';
import type { Column, ColumnKind } from '../output/exporter.js';
import { formatTimestampMicros, isoDuration } from '../core/timestamps.js';
import { writeDataset } from '../output/write.js';
import { loadDuckDB } from '../mirror/duckdb.js';
import { checkNotWritingTheMirror, mirrorOf } from './mirror-location.js';
import { duckdbWholeMessage, isFileFailure, Mirror } from '../mirror/mirror.js';
import { outputOptions } from './output-options.js';

/** How one column of an answer becomes a field of the records mkt writes. */
interface ColumnReader {
  kind: ColumnKind;
  /** The column's values of one chunk, as JSON values. */
  read(values: readonly DuckDBValue[]): unknown[];
}

export async function runSql(context: Context, request: { query: string; mirror?: string }): Promise<void> {
  // DuckDB's own error for that is "Error in native callback".
  if (holdsNoStatement(request.query)) {
    throw new UsageError('the query holds no SQL statement', { hint: 'For example: mkt sql "SELECT count(*) FROM results"' });
  }
  const output = outputOptions(context, (await context.settings()).defaultFormat);
  const path = await mirrorOf(context, request.mirror);
  checkNotWritingTheMirror(output.outputPath, path);
  const mirror = await Mirror.open(path, { write: false, signal: context.signal });
  context.defer(() => mirror.close());
  mirror.syncedIdentity();
  await mirror.confine();
  const refuse = refuseWritingFiles(request.query);
  const { StatementType } = loadDuckDB();
  let statementRunning: StatementType | undefined;
  let result: DuckDBResult;
  try {
    // Several statements run in turn, and the last one's answer is written, as with `psql -c`.
    result = await mirror.answer(request.query, (type) => {
      refuse(type);
      statementRunning = type;
    });
  } catch (error) {
    if (error instanceof MktError) throw error;
    // An ATTACH fails on the file it names, not on the mirror.
    if ((isFileFailure(error) && statementRunning !== StatementType.ATTACH) || context.signal.aborted) throw mirror.failure(error);
    throw new UsageError(duckdbWholeMessage(error), {
      hint: `The query reads ${path} alone, read-only: tables results, results_with_values and mkt_*; -o writes the answer (docs/mirror.md).`,
    });
  }
  const names = result.deduplicatedColumnNames();
  // JSON has no number for them: written as strings there, as DuckDB's own JSON converter writes those of a list.
  const nonFiniteAsText = output.format === 'json' || output.format === 'ndjson';
  const readers = result.columnTypes().map((type) => readerOf(type, nonFiniteAsText));
  const columns: Column[] = names.map((name, index) => ({ name, kind: readers[index]!.kind, nullable: true }));
  const written = await writeDataset({ shape: 'list', batches: recordsOf(mirror, result, names, readers), columns, select: context.globals.columns }, output);
  // An empty table draws nothing: said on a terminal, as psql says `(0 rows)`, of a query (not of SET, say).
  const query = result.statementType === loadDuckDB().StatementType.SELECT;
  if (written.records === 0 && query && context.showsProgress) {
    context.log.info('the answer has no rows');
  }
}

/**
 * What writes files, which DuckDB lets write the mirror's own even when it lets them write no
 * other (Mirror.confine): COPY and EXPORT, or a COPY prepared (PREPARE) or run by EXPLAIN
 * ANALYZE; and file logging (enable_logging), which aborted the process when DuckDB closed.
 */
function refuseWritingFiles(query: string): (type: StatementType) => void {
  const { StatementType } = loadDuckDB();
  const refused = new Set([StatementType.COPY, StatementType.COPY_DATABASE, StatementType.EXPORT, StatementType.PREPARE]);
  const explainAnalyze = /\bEXPLAIN\s+ANALY[SZ]E\b/i.test(query);
  const fileLogging = /\benable_logging\b/i.test(query);
  return (type) => {
    const what = refused.has(type)
      ? StatementType[type]
      : type === StatementType.EXPLAIN && explainAnalyze
        ? 'EXPLAIN ANALYZE'
        : fileLogging
          ? 'enable_logging'
          : undefined;
    if (what) throw new UsageError(`mkt sql writes no file: ${what} is refused`, { hint: '-o writes the answer in any --format.' });
  };
}

/**
 * Whether a query is only blanks, semicolons and comments. A `--` or `/*` inside a string is
 * taken for a comment too, which can leave text but never remove all of a statement.
 */
function holdsNoStatement(query: string): boolean {
  return !/[^\s;]/.test(query.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ''));
}

async function* recordsOf(mirror: Mirror, result: DuckDBResult, names: readonly string[], readers: readonly ColumnReader[]): AsyncGenerator<Record<string, unknown>[]> {
  for (let chunk = await mirror.nextChunk(result); chunk && chunk.rowCount > 0; chunk = await mirror.nextChunk(result)) {
    const columns = readers.map((reader, index) => reader.read(chunk.getColumnValues(index)));
    const records: Record<string, unknown>[] = [];
    for (let row = 0; row < chunk.rowCount; row++) {
      const record: Record<string, unknown> = {};
      names.forEach((name, index) => {
        record[name] = columns[index]![row];
      });
      records.push(record);
    }
    yield records;
  }
}

/** DuckDB's whole numbers that fit Parquet's INT64, signed. */
const INTEGER_TYPES = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER']);
/** Whole numbers that fit no Parquet integer: DOUBLE there, as DuckDB's own Parquet writer makes them. */
const WIDE_INTEGER_TYPES = new Set(['HUGEINT', 'UHUGEINT']);
const NUMBER_TYPES = new Set(['FLOAT', 'DOUBLE', 'DECIMAL']);

/** How a timestamp type's value gives its microseconds since 1970, for each DuckDB timestamp type. */
function timestampMicros(typeId: DuckDBTypeId): ((value: DuckDBValue) => bigint) | undefined {
  const { DuckDBTypeId } = loadDuckDB();
  switch (typeId) {
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return (value) => (value as DuckDBTimestampValue).micros;
    case DuckDBTypeId.TIMESTAMP_S:
      return (value) => (value as DuckDBTimestampSecondsValue).seconds * 1_000_000n;
    case DuckDBTypeId.TIMESTAMP_MS:
      return (value) => (value as DuckDBTimestampMillisecondsValue).millis * 1000n;
    case DuckDBTypeId.TIMESTAMP_NS:
      return (value) => (value as DuckDBTimestampNanosecondsValue).nanos / 1000n;
    default:
      return undefined;
  }
}

/** A whole number as a number where a double holds it exactly, else as a bigint, which every format writes with all its digits. */
function wholeNumber(value: DuckDBValue): number | bigint {
  if (typeof value !== 'bigint') return value as number;
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/**
 * How each DuckDB type is written, keeping what it is: whole numbers with all their digits
 * (INT64 in Parquet, UINT_64 for a UBIGINT, DOUBLE for a HUGEINT); other numbers as doubles
 * (Infinity, -Infinity and NaN as text when `nonFiniteAsText`); booleans as booleans; DATE as
 * `YYYY-MM-DD` (a Parquet DATE); every timestamp as the service spells its timestamps, to the
 * microsecond (Parquet timestamps); an INTERVAL in ISO 8601 (`P1DT2H`); everything else as
 * DuckDB's own JSON form of it.
 */
function readerOf(type: DuckDBType, nonFiniteAsText: boolean): ColumnReader {
  const name = type.typeId;
  const { DuckDBTypeId, JsonDuckDBValueConverter } = loadDuckDB();
  const typeName = DuckDBTypeId[name] as string;
  const nullOr = <T>(convert: (value: DuckDBValue) => T) => (values: readonly DuckDBValue[]) => values.map((value) => (value === null ? null : convert(value)));
  if (name === DuckDBTypeId.VARCHAR) return { kind: 'string', read: (values) => [...values] };
  if (name === DuckDBTypeId.BOOLEAN) return { kind: 'boolean', read: (values) => [...values] };
  if (INTEGER_TYPES.has(typeName)) return { kind: 'integer', read: nullOr(wholeNumber) };
  if (name === DuckDBTypeId.UBIGINT) return { kind: 'unsigned_integer', read: nullOr(wholeNumber) };
  if (WIDE_INTEGER_TYPES.has(typeName)) return { kind: 'number', read: nullOr(wholeNumber) };
  if (NUMBER_TYPES.has(typeName)) {
    const numberOf = (value: DuckDBValue): number => (typeof value === 'object' && value !== null && 'toDouble' in value ? (value as { toDouble(): number }).toDouble() : Number(value));
    return {
      kind: 'number',
      read: nullOr((value) => {
        const number = numberOf(value);
        return nonFiniteAsText && !Number.isFinite(number) ? String(number) : number;
      }),
    };
  }
  if (name === DuckDBTypeId.DATE) return { kind: 'date', read: nullOr(String) };
  const microsOf = timestampMicros(name);
  if (microsOf) {
    const withOffset = name === DuckDBTypeId.TIMESTAMP_TZ;
    return {
      kind: withOffset ? 'timestamp_utc' : 'timestamp_local',
      read: nullOr((value) => formatTimestampMicros(microsOf(value), withOffset) ?? String(value)),
    };
  }
  if (name === DuckDBTypeId.INTERVAL) return { kind: 'string', read: nullOr((value) => isoDuration(value as DuckDBIntervalValue)) };
  return {
    kind: 'string',
    read: (values) => values.map((value) => (value === null ? null : JsonDuckDBValueConverter(value, type, JsonDuckDBValueConverter))),
  };
}
