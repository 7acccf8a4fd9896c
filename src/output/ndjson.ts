import type { Exporter } from './exporter.js';
import { ChunkSink } from './sink.js';
import { selectedRecords } from './selected-records.js';

/** `ndjson`: one compact JSON record per line, LF-terminated; an object is one line. */
export const ndjsonExporter: Exporter = {
  async write(dataset, target) {
    const sink = new ChunkSink(target.stream);
    try {
      for await (const record of selectedRecords(dataset)) {
        const wait = sink.write(`${JSON.stringify(record)}\n`);
        if (wait) await wait;
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
