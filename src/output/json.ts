import type { Exporter } from './exporter.js';
import { ChunkSink } from './sink.js';
import { selectedRecords } from './selected-records.js';

/**
 * `json`. A list is an array streamed one compact record per line, indented by two spaces, so
 * that it reads as well as it greps; `[]` when empty. An object is written whole, pretty-printed.
 */
export const jsonExporter: Exporter = {
  async write(dataset, target) {
    const sink = new ChunkSink(target.stream);
    try {
      const records = selectedRecords(dataset);
      if (dataset.shape === 'object') {
        for await (const record of records) {
          sink.write(`${JSON.stringify(record, null, 2)}\n`);
          break;
        }
      } else {
        let separator = '[\n  ';
        for await (const record of records) {
          const wait = sink.write(separator + JSON.stringify(record));
          separator = ',\n  ';
          if (wait) await wait;
        }
        sink.write(separator === '[\n  ' ? '[]\n' : '\n]\n');
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
