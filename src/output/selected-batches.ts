import type { Dataset, JsonObject, RecordBatch } from './exporter.js';
import { deriveColumns, validateColumns } from './columns.js';
import { flattenRecord } from './flatten.js';
import { createProjection } from './projection.js';

/**
 * The batches of a JSON format, their records cut down to `--columns` (and so no longer as the
 * service sent them). A selection from declared columns was checked by writeDataset; otherwise
 * it is checked against the first record's columns before that record is handed on, so a bad
 * name fails before anything is written.
 */
export function selectedBatches(dataset: Dataset<JsonObject>): AsyncIterable<RecordBatch<JsonObject>> {
  const { select, columns } = dataset;
  if (!select) return dataset.batches;
  const project = createProjection(select);
  return (async function* () {
    let checked = columns !== undefined;
    for await (const batch of dataset.batches) {
      const first = batch.records[0];
      if (!checked && first !== undefined) {
        validateColumns(select, deriveColumns(flattenRecord(first)));
        checked = true;
      }
      yield { records: batch.records.map(project), byteStrings: batch.byteStrings };
    }
  })();
}
