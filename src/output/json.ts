import type { Exporter } from './exporter.js';
import { jsonText } from './flatten.js';
import { ChunkSink } from './sink.js';
import { selectedBatches } from './selected-batches.js';

const OPEN = '[\n  ';
const BETWEEN = ',\n  ';

/**
 * `json`. A list is an array streamed one compact record per line, indented by two spaces, so
 * that it reads as well as it greps; `[]` when empty. An object is written whole,
 * pretty-printed.
 */
export const jsonExporter: Exporter = {
  async write(dataset, target) {
    const sink = new ChunkSink(target.stream);
    try {
      const batches = selectedBatches(dataset);
      if (dataset.shape === 'object') {
        for await (const records of batches) {
          if (records.length === 0) continue;
          sink.write(`${jsonText(records[0], 2)}\n`);
          break;
        }
      } else {
        let written = false;
        for await (const records of batches) {
          let wait: Promise<void> | undefined;
          for (const record of records) {
            wait = sink.write((written ? BETWEEN : OPEN) + jsonText(record));
            written = true;
          }
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
