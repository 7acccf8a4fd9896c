import type { Column, ColumnFit, Exporter } from './exporter.js';
import { valueText } from './flatten.js';
import { cellText, type GridColumn, type GridText, gridLines } from './grid.js';
import { ChunkSink } from './sink.js';
import { tabulate } from './tabular.js';

/** An array of scalars: a list, shown one item a line. */
function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item !== 'object' || item === null);
}

/**
 * A cell's text. A list in a resource's flattened columns is its items, one a line; a declared
 * column's value is one value (src/output/tabular.ts), so a list there stays its JSON text.
 */
function tableCell(value: unknown, listsAsLines: boolean): GridText {
  if (value === null || value === undefined) return '';
  if (listsAsLines && isList(value)) return value.map((item) => cellText(valueText(item)));
  return cellText(valueText(value));
}

/**
 * How a column gives way on a narrow terminal, from what it holds: a list wraps; a column of
 * single words (numbers, amounts, dates, identifiers: `$0.0030`, `2025-06-25T23:06:49+00:00`,
 * `NASDAQ_BX`) is never cut; free text (words and spaces) is cut with `…`.
 */
function fitOf(column: Column, cells: readonly GridText[]): ColumnFit {
  if (column.kind !== 'string' && column.kind !== 'json') return 'whole';
  let fit: ColumnFit = 'whole';
  for (const cell of cells) {
    if (typeof cell !== 'string') return 'wrap';
    if (cell.includes(' ')) fit = 'cut';
  }
  return fit;
}

/**
 * `table`, for people: the dataset's `tableColumns`, under their short headers, unless
 * `--columns` says otherwise (then the field names, as typed). It holds every row's cell texts,
 * since column widths depend on all of them, and writes the lines as the stream takes them.
 * null and empty strings both show blank. No records, no table.
 */
export const tableExporter: Exporter = {
  async write(dataset, target) {
    const defaults = dataset.select ? undefined : dataset.tableColumns;
    const { columns, batches, rowsOf } = await tabulate(dataset, defaults?.map((column) => column.name));
    const listsAsLines = dataset.columns === undefined;
    const rows: GridText[][] = [];
    for await (const records of batches) {
      for (const record of records) {
        for (const row of rowsOf(record)) rows.push(columns.map((column) => tableCell(row[column.name], listsAsLines)));
      }
    }
    const header = columns.map((column, index): GridColumn => {
      const chosen = defaults?.find((candidate) => candidate.name === column.name);
      return {
        header: chosen?.header ?? column.name,
        align: column.kind === 'number' || column.kind === 'integer' ? 'right' : 'left',
        fit: chosen?.fit ?? fitOf(column, rows.map((row) => row[index] ?? '')),
        ...(chosen?.priority === undefined ? {} : { priority: chosen.priority }),
      };
    });
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
