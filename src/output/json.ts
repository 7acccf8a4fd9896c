import { batchText, type Exporter } from './exporter.js';
import { ChunkSink } from './sink.js';
import { selectedBatches } from './selected-batches.js';
import { joinSource } from './source-json.js';

const OPEN = '[\n  ';
const BETWEEN = ',\n  ';
const OPEN_BYTES = Buffer.from(OPEN);
const BETWEEN_BYTES = Buffer.from(BETWEEN);

/**
 * `json`. A list is an array streamed one record per line, indented by two spaces, so that it
 * reads as well as it greps; `[]` when empty. Records the service sent on one line are written
 * as it sent them; others are serialized compactly. An object is written whole, pretty-printed.
 */
export const jsonExporter: Exporter = {
  async write(dataset, target) {
    const sink = new ChunkSink(target.stream);
    try {
      const batches = selectedBatches(dataset);
      if (dataset.shape === 'object') {
        for await (const batch of batches) {
          if (batch.records.length === 0) continue;
          sink.write(batchText(batch, `${JSON.stringify(batch.records[0], null, 2)}\n`));
          break;
        }
      } else {
        let written = false;
        for await (const batch of batches) {
          if (batch.records.length === 0) continue;
          const source = batch.source?.();
          const wait = source
            ? sink.write(joinSource(source, BETWEEN_BYTES, { prefix: written ? BETWEEN_BYTES : OPEN_BYTES }))
            : sink.write(batchText(batch, (written ? BETWEEN : OPEN) + batch.records.map((record) => JSON.stringify(record)).join(BETWEEN)));
          written = true;
          if (wait) await wait;
        }
        sink.write(written ? '\n]\n' : '[]\n');
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
