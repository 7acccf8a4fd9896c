import type { Dataset, JsonObject } from './exporter.js';
import { deriveColumns, validateColumns } from './columns.js';
import { flattenRecord } from './flatten.js';
import { createProjection } from './projection.js';

/**
 * The records of a JSON format, cut down to `--columns`. The selection is checked against the
 * declared columns, or else against the first record's, before that record is handed on, so a
 * bad name fails before anything is written.
 */
export function selectedRecords(dataset: Dataset<JsonObject>): AsyncIterable<JsonObject> {
  const { select, columns } = dataset;
  if (!select) return dataset.records;
  if (columns) validateColumns(select, columns);
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
