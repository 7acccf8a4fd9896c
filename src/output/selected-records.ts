import type { Dataset, JsonObject } from './exporter.js';
import { deriveColumns, validateColumns } from './columns.js';
import { flattenRecord } from './flatten.js';
import { createProjection } from './projection.js';

/**
 * The records of a JSON format, cut down to `--columns`. A selection from declared columns was
 * checked by writeDataset; otherwise it is checked against the first record's columns before
 * that record is handed on, so a bad name fails before anything is written.
 */
export function selectedRecords(dataset: Dataset<JsonObject>): AsyncIterable<JsonObject> {
  const { select, columns } = dataset;
  if (!select) return dataset.records;
  const project = createProjection(select);
  return (async function* () {
    let checked = columns !== undefined;
    for await (const record of dataset.records) {
      if (!checked) {
        validateColumns(select, deriveColumns(flattenRecord(record)));
        checked = true;
      }
      yield project(record);
    }
  })();
}
