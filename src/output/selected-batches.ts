import { type Dataset, declaredColumns, type JsonObject } from './exporter.js';
import { deriveColumns, validateColumns } from './columns.js';
import { flattenRecord } from './flatten.js';
import { createProjection } from './projection.js';

/**
 * The batches of a JSON format, their records cut down to `--columns` (from the shape the
 * columns name, when the dataset gives one). A selection from declared columns was checked by
 * writeDataset; otherwise it is checked against the columns the first record declares (results)
 * or has, before that record is handed on, so a bad name fails before anything is written.
 */
export function selectedBatches(dataset: Dataset<JsonObject>): AsyncIterable<readonly JsonObject[]> {
  const { select, columns } = dataset;
  if (!select) return dataset.batches;
  const projection = createProjection(select);
  const { shapeForColumns: shape } = dataset;
  const project = shape ? (record: JsonObject) => projection(shape(record)) : projection;
  return (async function* () {
    let checked = Array.isArray(columns);
    for await (const records of dataset.batches) {
      const first = records[0];
      if (!checked && first !== undefined) {
        validateColumns(select, declaredColumns(dataset, records) ?? deriveColumns(flattenRecord(first)));
        checked = true;
      }
      yield records.map(project);
    }
  })();
}
