import { batchText, type Exporter } from './exporter.js';
import { ChunkSink } from './sink.js';
import { selectedBatches } from './selected-batches.js';
import { joinSource } from './source-json.js';

const NEWLINE = Buffer.from('\n');

/**
 * `ndjson`: one JSON record per line, LF-terminated; an object is one line. Records the service
 * sent on one line are written as it sent them; others are serialized compactly.
 */
export const ndjsonExporter: Exporter = {
  async write(dataset, target) {
    const sink = new ChunkSink(target.stream);
    try {
      for await (const batch of selectedBatches(dataset)) {
        const source = batch.records.length > 0 ? batch.source?.() : undefined;
        const wait = source
          ? sink.write(joinSource(source, NEWLINE, { suffix: NEWLINE }))
          : sink.write(batchText(batch, batch.records.map((record) => `${JSON.stringify(record)}\n`).join('')));
        if (wait) await wait;
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
