import { type Column, type Dataset, type JsonObject, withDeclaredColumns } from './exporter.js';
import { deriveColumns, validateColumns } from './columns.js';
import { type FlatRow, flattenRecord } from './flatten.js';

/** What a tabular format (table, CSV, Parquet) writes: its columns, the records, and their rows. */
export interface Tabular {
  columns: readonly Column[];
  batches: AsyncIterable<readonly JsonObject[]> | Iterable<readonly JsonObject[]>;
  /**
   * The rows of a record. Declared columns (results) are the record's own fields: the record is
   * its one row, and a field the service sent as an object or array is one value, written as
   * JSON text, rather than dotted columns no declared column names; unless the dataset gives
   * the shape its columns name (shapeForColumns), which is flattened. Otherwise flattenRecord.
   */
  rowsOf: (record: JsonObject) => readonly FlatRow[];
}

const asOneRow = (record: JsonObject): readonly FlatRow[] => [record];

/**
 * The columns of a dataset in a tabular format, narrowed to `--columns` (or, when that is
 * absent, to `defaultSelect`).
 *
 * Columns declared by the first record are known once the first batch is read.
 * When the dataset does not declare its columns (the exchange resources, whose shape is only
 * known from the data), the records are read first and the columns derived from them. Such
 * datasets are one object or one response, so holding them is cheap; large exports (results)
 * declare their columns and stream.
 */
export async function tabulate(dataset: Dataset<JsonObject>, defaultSelect?: readonly string[]): Promise<Tabular> {
  const select = dataset.select ?? defaultSelect;
  const declared = await withDeclaredColumns(dataset);
  if (declared.columns) {
    const { shapeForColumns: shape } = dataset;
    const rowsOf = shape ? (record: JsonObject) => flattenRecord(shape(record)) : asOneRow;
    return { columns: select ? validateColumns(select, declared.columns) : declared.columns, batches: declared.batches, rowsOf };
  }
  const records: JsonObject[] = [];
  for await (const batch of dataset.batches) for (const record of batch) records.push(record);
  const batches = [records];
  if (records.length === 0 && select) {
    return { columns: select.map((name) => ({ name, kind: 'string', nullable: true })), batches, rowsOf: flattenRecord };
  }
  const derived = deriveColumns(records.flatMap(flattenRecord));
  return { columns: select ? validateColumns(select, derived) : derived, batches, rowsOf: flattenRecord };
}
