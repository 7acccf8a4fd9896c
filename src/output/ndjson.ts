import type { Exporter } from './exporter.js';
import { jsonText } from './flatten.js';
import { ChunkSink } from './sink.js';
import { selectedBatches } from './selected-batches.js';

/** `ndjson`: one compact JSON record per line, LF-terminated; an object is one line. */
export const ndjsonExporter: Exporter = {
  async write(dataset, target) {
    const sink = new ChunkSink(target.stream);
    try {
      for await (const records of selectedBatches(dataset)) {
        let wait: Promise<void> | undefined;
        for (const record of records) wait = sink.write(`${jsonText(record)}\n`);
        if (wait) await wait;
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
