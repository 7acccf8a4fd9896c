import type { OutputTarget } from './exporter.js';
import { paint, type Style } from '../io/color.js';
import { displayWidth, truncateToWidth } from './text-width.js';

export interface GridColumn {
  header: string;
  /** Numbers read better aligned right. @default 'left' */
  align?: 'left' | 'right';
}

/** A cell's text, and how to colour it when colour is allowed. */
export type GridCell = string | { text: string; style: Style };

/** A truncated column keeps at least this many characters. */
const MIN_COLUMN_WIDTH = 4;
/** The spaces around a cell's text: one on either side. */
const CELL_PADDING = 2;

/**
 * Text fit for a table cell, on one line. Control characters, C0 and C1 (an escape sequence in
 * the data could drive the terminal; U+009B alone is a CSI), become U+FFFD, a line break shows
 * as ↵, a tab as a space.
 */
export function cellText(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, '↵')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
}

/**
 * Text widths (padding excluded) that fit `available` terminal cells, or undefined when the
 * natural widths fit. The widest columns give way first; none goes below MIN_COLUMN_WIDTH.
 */
export function fitColumnWidths(natural: readonly number[], available: number): number[] | undefined {
  const sum = (widths: readonly number[]): number => widths.reduce((total, width) => total + width, 0);
  // A row is each column's text and padding plus the border on its left, then one closing border.
  const budget = available - natural.length * (CELL_PADDING + 1) - 1;
  if (sum(natural) <= budget) return undefined;
  const capped = (cap: number): number[] => natural.map((width) => Math.min(width, cap));
  let low = MIN_COLUMN_WIDTH;
  let high = Math.max(...natural);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (sum(capped(middle)) <= budget) low = middle;
    else high = middle - 1;
  }
  const widths = capped(low);
  let spare = budget - sum(widths);
  for (let index = 0; index < widths.length && spare > 0; index++) {
    const grow = Math.min(spare, (natural[index] as number) - (widths[index] as number));
    widths[index] = (widths[index] as number) + grow;
    spare -= grow;
  }
  return widths;
}

export interface GridBody {
  /** Each row's cell texts, already fit for a cell (cellText). */
  texts: readonly (readonly string[])[];
  /** How to colour a cell, if at all. */
  styleOf?: (row: number, column: number) => Style | undefined;
}

function textOf(cell: GridCell | undefined): string {
  if (cell === undefined) return '';
  return cellText(typeof cell === 'string' ? cell : cell.text);
}

function styleOf(rows: readonly (readonly GridCell[])[]) {
  return (row: number, column: number): Style | undefined => {
    const cell = rows[row]?.[column];
    return typeof cell === 'object' ? cell.style : undefined;
  };
}

/**
 * The table's lines, each without its line break. Written here rather than with cli-table3,
 * whose layout is quadratic in the number of rows (20,000 rows: 91 s; see docs/formats.md).
 */
export function* gridLines(columns: readonly GridColumn[], body: GridBody, target: OutputTarget, withHeader = true): Generator<string> {
  if (columns.length === 0) return;
  const head = withHeader ? columns.map((column) => cellText(column.header)) : undefined;
  const natural = columns.map((_, index) => {
    let widest = head ? displayWidth(head[index] ?? '') : 0;
    for (const row of body.texts) widest = Math.max(widest, displayWidth(row[index] ?? ''));
    return widest;
  });
  const widths = (target.isTTY && target.width ? fitColumnWidths(natural, target.width) : undefined) ?? natural;
  const rule = (left: string, middle: string, right: string): string =>
    `${left}${widths.map((width) => '─'.repeat(width + CELL_PADDING)).join(middle)}${right}`;
  const line = (texts: readonly string[], style: (column: number) => Style | undefined): string => {
    const cells = widths.map((width, index) => {
      const text = truncateToWidth(texts[index] ?? '', width);
      const padding = ' '.repeat(width - displayWidth(text));
      const cellStyle = style(index);
      const shown = cellStyle ? paint(target.color, cellStyle, text) : text;
      return columns[index]?.align === 'right' ? `${padding}${shown}` : `${shown}${padding}`;
    });
    return `│ ${cells.join(' │ ')} │`;
  };
  yield rule('┌', '┬', '┐');
  if (head) {
    yield line(head, () => 'bold');
    yield rule('├', '┼', '┤');
  }
  for (const [row, texts] of body.texts.entries()) yield line(texts, (column) => body.styleOf?.(row, column));
  yield rule('└', '┴', '┘');
}

function joinLines(lines: Iterable<string>): string {
  let text = '';
  for (const line of lines) text += `${line}\n`;
  return text;
}

/**
 * A table with a header row. On a terminal it fits the width, cells cut with `…`; elsewhere
 * nothing is cut. Colour (a bold header, styled cells) only when the target allows it.
 */
export function renderGrid(columns: readonly GridColumn[], rows: readonly (readonly GridCell[])[], target: OutputTarget): string {
  const texts = rows.map((row) => columns.map((_, index) => textOf(row[index])));
  return joinLines(gridLines(columns, { texts, styleOf: styleOf(rows) }, target));
}

/** Label and value pairs, one per line: the summary of a resource. */
export function renderKeyValueTable(pairs: readonly (readonly [label: string, value: GridCell])[], target: OutputTarget): string {
  const rows = pairs.map(([label, value]): GridCell[] => [{ text: label, style: 'bold' }, value]);
  const texts = rows.map((row) => row.map(textOf));
  return joinLines(gridLines([{ header: '' }, { header: '' }], { texts, styleOf: styleOf(rows) }, target, false));
}
