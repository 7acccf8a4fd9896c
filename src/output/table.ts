import type { Exporter } from './exporter.js';
import { valueText } from './flatten.js';
import { cellText, gridLines } from './grid.js';
import { ChunkSink } from './sink.js';
import { tabulate } from './tabular.js';

function tableCell(value: unknown): string {
  return value === null || value === undefined ? '' : cellText(valueText(value));
}

/**
 * `table`, for people: the dataset's `tableColumns` unless `--columns` says otherwise. It holds
 * every row's cell texts, since column widths depend on all of them, and writes the lines as
 * the stream takes them. null and empty strings both show blank.
 */
export const tableExporter: Exporter = {
  async write(dataset, target) {
    const { columns, batches, rowsOf } = await tabulate(dataset, dataset.tableColumns);
    const rows: string[][] = [];
    for await (const records of batches) {
      for (const record of records) {
        for (const row of rowsOf(record)) rows.push(columns.map((column) => tableCell(row[column.name])));
      }
    }
    const header = columns.map((column) => ({ header: column.name, align: column.kind === 'number' ? ('right' as const) : ('left' as const) }));
    const sink = new ChunkSink(target.stream);
    try {
      for (const line of gridLines(header, { texts: rows }, target)) {
        const wait = sink.write(`${line}\n`);
        if (wait) await wait;
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
