import { AMOUNT_FIELDS } from '../api/amounts.js';
import { CITATION_FIELDS, type FieldKind } from '../api/fields.js';
import type { ServiceShape } from '../api/record-id.js';
import { MIRROR_FIELDS } from './rows.js';

/**
 * The layout of a mirror (docs/mirror.md). `results` holds the fields of its records' shape with
 * true types (MIRROR_FIELDS), as do `mkt_removed_results` and `mkt_walk_results`; every other
 * table is mkt's bookkeeping and starts with `mkt_`, and keeps a record's id as `id`. A mirror
 * written by a later layout is refused rather than misread.
 *
 * The citation columns, and `mkt_mirror.shape` (the shape of its records, null for a mirror made
 * before there were two: the interface's), are added to a mirror an earlier mkt made, columns
 * only, when a sync opens it. Added last, they may follow `removed_at` in `mkt_removed_results`,
 * which is therefore written by name.
 *
 * `mkt_mirror.results_in_order`, which earlier mkts noted to read pages by the records' places,
 * is dropped by a sync: an earlier mkt would trust its note over records this one changed. A
 * mirror that still has it opens as any other.
 *
 * `mkt_walk.total_records` and `newest_id` are the service's count and newest record when an
 * unfinished full walk began, which the walk compares with the service's when it ends
 * (src/mirror/sync.ts). A walk left by an mkt before them is not carried on, but begun again.
 */
export const MIRROR_LAYOUT = 1;

const SQL_TYPES: Record<FieldKind, string> = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  json: 'VARCHAR',
  timestamp_utc: 'TIMESTAMPTZ',
  timestamp_local: 'TIMESTAMP',
};

/** The columns of a table of records of the shape, as SQL. */
const columnsDdl = (shape: ServiceShape) => MIRROR_FIELDS[shape].map((field) => `${field.name} ${SQL_TYPES[field.kind]}`).join(', ');

/** fee_amount_value and fee_amount_unit right after fee_amount, as `--parse-amounts` writes them. */
const columnsWithValues = (shape: ServiceShape) =>
  MIRROR_FIELDS[shape].flatMap((field) =>
    field.name === 'fee_amount' ? ['r.fee_amount', ...AMOUNT_FIELDS.map((amount) => `a.${amount.name}`)] : [`r.${field.name}`],
  ).join(', ');

/** The citation columns of a table of interface records, added to one an earlier mkt made. */
const addCitationColumns = (table: string, shape: ServiceShape) =>
  shape === 'interface' ? CITATION_FIELDS.map((field) => `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${field.name} ${SQL_TYPES[field.kind]};`).join('\n') : '';

/** The view of `results` with the amounts parsed, over results of the shape. */
const valuesViewDdl = (shape: ServiceShape) =>
  `CREATE OR REPLACE VIEW results_with_values AS SELECT ${columnsWithValues(shape)} FROM results r LEFT JOIN mkt_amounts a ON a.fee_amount = r.fee_amount;`;

/**
 * The tables a mirror lacks, those of records in the layout of the shape; the tables it has are
 * kept as they are. The view follows the columns `results` has.
 */
export const createSchema = (shape: ServiceShape, resultsShape = shape) => `
CREATE TABLE IF NOT EXISTS results (${columnsDdl(shape)});
${addCitationColumns('results', shape)}
CREATE TABLE IF NOT EXISTS mkt_mirror (layout INTEGER NOT NULL, service VARCHAR NOT NULL, filters VARCHAR NOT NULL, created_at TIMESTAMPTZ NOT NULL);
ALTER TABLE mkt_mirror DROP COLUMN IF EXISTS results_in_order;
ALTER TABLE mkt_mirror ADD COLUMN IF NOT EXISTS shape VARCHAR;
CREATE TABLE IF NOT EXISTS mkt_syncs (started_at TIMESTAMPTZ, finished_at TIMESTAMPTZ, new_records BIGINT, removed_records BIGINT, changed_records BIGINT, requests INTEGER, total_records BIGINT, full_walk BOOLEAN);
${createRemovedResults(shape)}
${addCitationColumns('mkt_removed_results', shape)}
CREATE TABLE IF NOT EXISTS mkt_timestamp_text (id VARCHAR, scraped_time VARCHAR, created_on VARCHAR);
CREATE TABLE IF NOT EXISTS mkt_amounts (fee_amount VARCHAR, fee_amount_value DOUBLE, fee_amount_unit VARCHAR);
CREATE TABLE IF NOT EXISTS mkt_walk (service VARCHAR, filters VARCHAR, page_size INTEGER, next_page INTEGER, started_at TIMESTAMPTZ);
ALTER TABLE mkt_walk ADD COLUMN IF NOT EXISTS total_records BIGINT;
ALTER TABLE mkt_walk ADD COLUMN IF NOT EXISTS newest_id VARCHAR;
${createStagingTables(shape)}
${addCitationColumns('mkt_walk_results', shape)}
${valuesViewDdl(resultsShape)}
`;

/**
 * What a full walk's records replacing `results` leave to make, for records of the shape:
 * mkt_removed_results when it was dropped for records of the other shape, empty staging tables,
 * and the view over the new `results`.
 */
export const afterResultsReplaced = (shape: ServiceShape) => `
${createRemovedResults(shape)}
${createStagingTables(shape)}
${valuesViewDdl(shape)}
`;

const createRemovedResults = (shape: ServiceShape) => `CREATE TABLE IF NOT EXISTS mkt_removed_results (${columnsDdl(shape)}, removed_at TIMESTAMPTZ);`;

/** The tables a full walk stages records of the shape in, when the mirror lacks them: made anew for each walk. */
export const createStagingTables = (shape: ServiceShape) => `
CREATE TABLE IF NOT EXISTS mkt_walk_results (${columnsDdl(shape)});
CREATE TABLE IF NOT EXISTS mkt_walk_timestamp_text (id VARCHAR, scraped_time VARCHAR, created_on VARCHAR);
`;
