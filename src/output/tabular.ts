import type { Column, Dataset, JsonObject } from './exporter.js';
import { deriveColumns, validateColumns } from './columns.js';
import { flattenRecord } from './flatten.js';

/** What a tabular format (table, CSV, Parquet) writes: its columns, and the records to flatten. */
export interface Tabular {
  columns: readonly Column[];
  /** Each record gives `flattenRecord(record)` rows. */
  batches: AsyncIterable<readonly JsonObject[]> | Iterable<readonly JsonObject[]>;
}

/**
 * The columns of a dataset in a tabular format, narrowed to `--columns` (or, when that is
 * absent, to `defaultSelect`).
 *
 * When the dataset does not declare its columns (the exchange resources, whose shape is only
 * known from the data), the records are read first and the columns derived from them. Such
 * datasets are one object or one response, so holding them is cheap; large exports (results)
 * declare their columns and stream.
 */
export async function tabulate(dataset: Dataset<JsonObject>, defaultSelect?: readonly string[]): Promise<Tabular> {
  const select = dataset.select ?? defaultSelect;
  if (dataset.columns) {
    return { columns: select ? validateColumns(select, dataset.columns) : dataset.columns, batches: dataset.batches };
  }
  const records: JsonObject[] = [];
  for await (const batch of dataset.batches) for (const record of batch) records.push(record);
  const batches = [records];
  if (records.length === 0 && select) {
    return { columns: select.map((name) => ({ name, kind: 'string', nullable: true })), batches };
  }
  const derived = deriveColumns(records.flatMap(flattenRecord));
  return { columns: select ? validateColumns(select, derived) : derived, batches };
}
