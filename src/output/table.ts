import { type Column, type ColumnFit, type Exporter, isNumberKind, type TableColumn } from './exporter.js';
import { valueText } from './flatten.js';
import { cellText, type GridColumn, type GridText, gridLines } from './grid.js';
import { ChunkSink } from './sink.js';
import { tabulate } from './tabular.js';
import { relationshipLines } from './views/relationships.js';

/** An array of scalars: a list, shown one item a line. */
function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item !== 'object' || item === null);
}

/**
 * A cell's text. A list in a resource's flattened columns is its items, one a line; a declared
 * column's value is one value (src/output/tabular.ts), so a list there stays its JSON text.
 */
function tableCell(value: unknown, listsAsLines: boolean): GridText {
  const relationships = relationshipLines(value);
  if (relationships) return relationships.map(cellText);
  if (listsAsLines && isList(value)) return value.map((item) => cellText(valueText(item)));
  return oneLine(value);
}

/** A value as one line of text: blank for null. */
function oneLine(value: unknown): string {
  return value === null || value === undefined ? '' : cellText(valueText(value));
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
 * `table`, for people: the dataset's `tableColumns`, under their short headers (some on a
 * detail line under their row), unless `--columns` says otherwise: then the fields named, under
 * the dataset's `tableHeaders` or else their names. It holds every row's cell texts, since
 * column widths depend on all of them, and writes the lines as the stream takes them. null and
 * empty strings both show blank. No records, no table.
 */
export const tableExporter: Exporter = {
  async write(dataset, target) {
    const defaults = dataset.select ? undefined : dataset.tableColumns;
    const tabular = await tabulate(dataset, defaults?.map((column) => column.name));
    const { batches, rowsOf } = tabular;
    const chosenOf = (column: Column): TableColumn | undefined => defaults?.find((candidate) => candidate.name === column.name);
    const headerOf = (column: Column): string => chosenOf(column)?.header ?? dataset.tableHeaders?.[column.name] ?? column.name;
    const columns = tabular.columns.filter((column) => chosenOf(column)?.detail !== true);
    const details = tabular.columns.filter((column) => chosenOf(column)?.detail === true);
    const listsAsLines = dataset.columns === undefined;
    const rows: GridText[][] = [];
    const detailTexts: string[][] = [];
    for await (const records of batches) {
      for (const record of records) {
        for (const row of rowsOf(record)) {
          rows.push(columns.map((column) => tableCell(row[column.name], listsAsLines)));
          if (details.length > 0) detailTexts.push(details.map((column) => oneLine(row[column.name])));
        }
      }
    }
    const header = columns.map((column, index): GridColumn => {
      const chosen = chosenOf(column);
      return {
        header: headerOf(column),
        align: isNumberKind(column.kind) ? 'right' : 'left',
        fit: chosen?.fit ?? fitOf(column, rows.map((row) => row[index] ?? '')),
        ...(chosen?.priority === undefined ? {} : { priority: chosen.priority }),
      };
    });
    const sink = new ChunkSink(target.stream);
    try {
      const detail = details.length > 0 ? { labels: details.map(headerOf), texts: detailTexts } : undefined;
      for (const line of gridLines(header, { texts: rows, ...(detail ? { detail } : {}) }, target)) {
        const wait = sink.write(`${line}\n`);
        if (wait) await wait;
      }
      await sink.close();
    } finally {
      sink.detach();
    }
  },
};
