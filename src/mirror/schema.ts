import { AMOUNT_FIELDS } from '../api/amounts.js';
import { CITATION_FIELDS, type FieldKind } from '../api/fields.js';
import { MIRROR_FIELDS } from './rows.js';

/**
 * The layout of a mirror (docs/mirror.md). `results` holds the document's 26 fields and the
 * citation fields with true types, for records of either shape (MIRROR_FIELDS); every other
 * table is mkt's bookkeeping and starts with `mkt_`. A mirror written by a later layout is
 * refused rather than misread.
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

const resultColumnsDdl = MIRROR_FIELDS.map((field) => `${field.name} ${SQL_TYPES[field.kind]}`).join(', ');

/** fee_amount_value and fee_amount_unit right after fee_amount, as `--parse-amounts` writes them. */
const columnsWithValues = MIRROR_FIELDS.flatMap((field) =>
  field.name === 'fee_amount'
    ? ['r.fee_amount', ...AMOUNT_FIELDS.map((amount) => `a.${amount.name}`)]
    : [`r.${field.name}`],
).join(', ');

/** The citation columns of a table of records, added to one an earlier mkt made. */
const addCitationColumns = (table: string) =>
  CITATION_FIELDS.map((field) => `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${field.name} ${SQL_TYPES[field.kind]};`).join('\n');

export const CREATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS results (${resultColumnsDdl});
${addCitationColumns('results')}
CREATE TABLE IF NOT EXISTS mkt_mirror (layout INTEGER NOT NULL, service VARCHAR NOT NULL, filters VARCHAR NOT NULL, created_at TIMESTAMPTZ NOT NULL);
ALTER TABLE mkt_mirror DROP COLUMN IF EXISTS results_in_order;
ALTER TABLE mkt_mirror ADD COLUMN IF NOT EXISTS shape VARCHAR;
CREATE TABLE IF NOT EXISTS mkt_syncs (started_at TIMESTAMPTZ, finished_at TIMESTAMPTZ, new_records BIGINT, removed_records BIGINT, changed_records BIGINT, requests INTEGER, total_records BIGINT, full_walk BOOLEAN);
CREATE TABLE IF NOT EXISTS mkt_removed_results (${resultColumnsDdl}, removed_at TIMESTAMPTZ);
${addCitationColumns('mkt_removed_results')}
CREATE TABLE IF NOT EXISTS mkt_timestamp_text (id VARCHAR, scraped_time VARCHAR, created_on VARCHAR);
CREATE TABLE IF NOT EXISTS mkt_amounts (fee_amount VARCHAR, fee_amount_value DOUBLE, fee_amount_unit VARCHAR);
CREATE TABLE IF NOT EXISTS mkt_walk (service VARCHAR, filters VARCHAR, page_size INTEGER, next_page INTEGER, started_at TIMESTAMPTZ);
ALTER TABLE mkt_walk ADD COLUMN IF NOT EXISTS total_records BIGINT;
ALTER TABLE mkt_walk ADD COLUMN IF NOT EXISTS newest_id VARCHAR;
CREATE TABLE IF NOT EXISTS mkt_walk_results (${resultColumnsDdl});
${addCitationColumns('mkt_walk_results')}
CREATE TABLE IF NOT EXISTS mkt_walk_timestamp_text (id VARCHAR, scraped_time VARCHAR, created_on VARCHAR);
CREATE OR REPLACE VIEW results_with_values AS SELECT ${columnsWithValues} FROM results r LEFT JOIN mkt_amounts a ON a.fee_amount = r.fee_amount;
`;
