import { ENUM_FILTER_VALUES, type ResultsQuery } from '../api/filters.js';
import { CITATION_FIELDS, FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS, type FieldSpec, RESULT_FIELDS } from '../api/fields.js';
import { enumKey } from '../api/filter-spelling.js';
import { sqlText } from './duckdb.js';
import type { Mirror } from './mirror.js';
import type { PartitionKey } from './export-keys.js';
import { enumKeySql, mirrorWhere } from './offline-results.js';

/** What `mkt export` writes: the records of `query` from a mirror, into a directory partitioned by `keys`. */
export interface TreeRequest {
  query: ResultsQuery;
  /** Some of PARTITION_KEYS, in their order. */
  keys: readonly PartitionKey[];
}

/** The records a tree will hold, counted before it is written, and the columns of its files. */
export interface TreePlan {
  records: number;
  fields: readonly FieldSpec[];
}

/** The fee type as the filter table spells it (`OPTION`, `option` → `Option`), or as it came when the table has no such value. */
const feeTypeInFilterSpelling = (column: string): string =>
  `CASE ${enumKeySql(column)} ${ENUM_FILTER_VALUES.fee_type.map((value) => `WHEN ${sqlText(enumKey(value))} THEN ${sqlText(value)}`).join(' ')} ELSE ${column} END`;

/**
 * Each key's folder value. A day is the UTC day of scraped_time, written `YYYY-MM-DD`: a
 * timestamp's `:` breaks Athena's partition repair. An empty text is null, as Hive and Spark
 * write it (Spark refuses to read a `fee_type=` folder); DuckDB writes a null as
 * `__HIVE_DEFAULT_PARTITION__`, which DuckDB, pyarrow, polars and Spark read back as null.
 */
const PARTITION_VALUES: Readonly<Record<PartitionKey, string>> = {
  exchange_name: `nullif(r.exchange_name, '')`,
  fee_type: `nullif(${feeTypeInFilterSpelling('r.fee_type')}, '')`,
  scraped_date: 'make_timestamp(epoch_us(r.scraped_time))::DATE',
};

/**
 * The records the query matches and the columns their files take: those of the single-file
 * Parquet export of the mirror's shape (src/api/fields.ts), with an interface mirror's citation
 * columns when any of those records carries one.
 */
export async function planTree(mirror: Mirror, query: ResultsQuery): Promise<TreePlan> {
  const shape = mirror.shape ?? 'interface';
  const citations = shape === 'interface' ? CITATION_FIELDS.filter((field) => mirror.resultColumns.has(field.name)) : [];
  const carried = citations.length > 0 ? citations.map((field) => `r.${field.name} IS NOT NULL`).join(' OR ') : 'false';
  const { where, values } = mirrorWhere(mirror, query);
  const [row] = await mirror.rows(`SELECT count(*)::BIGINT AS n, coalesce(bool_or(${carried}), false) AS cited FROM results r ${where}`, values);
  return {
    records: Number(row?.n ?? 0),
    fields: row?.cited === true ? FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS : RESULT_FIELDS[shape],
  };
}

/**
 * Writes the records into `directory` (which exists and is empty) with DuckDB's partitioned
 * COPY: one folder level per key (`exchange_name=NYSE/fee_type=Option/`), files named
 * `part-<uuid>.parquet`. The values are the mirror's, which are those of the single-file export:
 * microsecond timestamps, null apart from "". A key's column is in the folder names, not the
 * files, as Hive has it; scraped_date is added, and scraped_time stays. Returns the records written.
 */
export async function writeTree(mirror: Mirror, request: TreeRequest, fields: readonly FieldSpec[], directory: string): Promise<number> {
  const { where, values } = mirrorWhere(mirror, request.query);
  const keys = new Set<string>(request.keys);
  const columns = fields.map((field) => (keys.has(field.name) ? `${PARTITION_VALUES[field.name as PartitionKey]} AS ${field.name}` : `r.${field.name}`));
  if (keys.has('scraped_date')) columns.push(`${PARTITION_VALUES.scraped_date} AS scraped_date`);
  const [row] = await mirror.rows(
    `COPY (SELECT ${columns.join(', ')} FROM results r ${where}) TO ${sqlText(directory)}
     (FORMAT parquet, PARTITION_BY (${request.keys.join(', ')}), FILENAME_PATTERN 'part-{uuid}')`,
    values,
  );
  return Number(row?.Count ?? 0);
}
