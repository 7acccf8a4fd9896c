import type { ColumnFit, OutputTarget } from './exporter.js';
import { paint, type Style } from '../io/color.js';
import { displayWidth, truncateToWidth, wrapToWidth } from './text-width.js';

export interface GridColumn {
  header: string;
  /** Numbers read better aligned right. @default 'left' */
  align?: 'left' | 'right';
  /** @default 'cut' */
  fit?: ColumnFit;
  /**
   * A column that may be left out when a row would not fit the terminal: the lowest priority
   * goes first. A column without one is always shown; when those cannot fit, a table of records
   * turns to the vertical layout.
   */
  priority?: number;
}

/** A cell's text: one line, or a list of lines (a list's items, one a line). */
export type GridText = string | readonly string[];

/** A cell's text, and how to colour it when colour is allowed. */
export type GridCell = GridText | { text: GridText; style: Style };

/** A column that gives way (cut or wrapped) keeps at least this many characters, and its header whole. */
const MIN_FLEXIBLE_WIDTH = 8;
/** When nothing else fits a headerless table: every column cut down to this many characters. */
const MIN_COLUMN_WIDTH = 4;
/** The spaces around a cell's text: one on either side. */
const CELL_PADDING = 2;
/** How far a list item wrapped onto more lines indents them: apart from the next item. */
const LIST_HANG = 2;
/** How far a row's detail line is indented under it. */
const DETAIL_INDENT = 2;
/** Between a label and its value in the vertical layout. */
const LABEL_GAP = '  ';

/**
 * Text fit for a table cell, on one line. Control characters, C0 and C1 (an escape sequence in
 * the data could drive the terminal; U+009B alone is a CSI), and the bidi overrides and isolates
 * (which would show a cell's text in another order than it has) become U+FFFD, a line break,
 * U+2028 and U+2029 included, shows as ↵, a tab as a space.
 */
export function cellText(text: string): string {
  return text
    .replace(/\r\n|[\r\n\u2028\u2029]/g, '↵')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '\uFFFD');
}

const sum = (widths: readonly number[]): number => widths.reduce((total, width) => total + width, 0);

/** The terminal cells a row of columns `widths` wide takes: text, padding and borders. */
function rowWidth(widths: readonly number[]): number {
  return sum(widths) + widths.length * (CELL_PADDING + 1) + 1;
}

/**
 * Text widths (padding excluded) that fit `available` terminal cells, each between its column's
 * `minimum` and `natural` width, or undefined when even the minimums do not fit. The widest
 * columns give way first; what is left over goes to the leftmost columns.
 */
export function fitColumnWidths(natural: readonly number[], minimum: readonly number[], available: number): number[] | undefined {
  const budget = available - rowWidth(natural.map(() => 0));
  if (sum(minimum) > budget) return undefined;
  if (sum(natural) <= budget) return [...natural];
  const capped = (cap: number): number[] => natural.map((width, index) => Math.max(minimum[index] as number, Math.min(width, cap)));
  let low = 0;
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
  texts: readonly (readonly GridText[])[];
  /** How to colour a cell, if at all. */
  styleOf?: (row: number, column: number) => Style | undefined;
  /**
   * Fields of each row shown on a line under it, across the table, as `label value` pairs
   * (those with a value; `·` between them): what tells rows apart but would not fit as columns.
   * In the vertical layout they are lines of their own, after the columns.
   */
  detail?: { labels: readonly string[]; texts: readonly (readonly string[])[] };
}

const linesOf = (text: GridText | undefined): readonly string[] => (text === undefined ? [''] : typeof text === 'string' ? [text] : text);

function widthOf(text: GridText | undefined): number {
  if (text === undefined) return 0;
  if (typeof text === 'string') return displayWidth(text);
  let widest = 0;
  for (const line of text) widest = Math.max(widest, displayWidth(line));
  return widest;
}

/** The narrowest a column may be drawn: its natural width, or its widest word, unless it gives way further. */
function minimumWidth(column: GridColumn, natural: number, texts: readonly (readonly (GridText | undefined)[])[], index: number): number {
  if (column.fit === 'whole') return natural;
  const flexible = Math.min(natural, Math.max(MIN_FLEXIBLE_WIDTH, displayWidth(column.header)));
  if (column.fit !== 'words') return flexible;
  let widestWord = 0;
  for (const row of texts) {
    for (const line of linesOf(row[index])) for (const word of line.split(' ')) widestWord = Math.max(widestWord, displayWidth(word));
  }
  return Math.max(flexible, widestWord);
}

/** A layout on a terminal: the columns shown, by index, and their text widths. */
interface RowLayout {
  shown: number[];
  widths: number[];
}

/**
 * The columns shown and their widths at `available` cells, leaving out columns that have a
 * priority (the lowest first) until the rest fit; undefined when the columns without one cannot.
 */
function rowLayout(columns: readonly GridColumn[], natural: readonly number[], minimum: readonly number[], available: number): RowLayout | undefined {
  const shown = columns.map((_, index) => index);
  for (;;) {
    const widths = fitColumnWidths(
      shown.map((index) => natural[index] as number),
      shown.map((index) => minimum[index] as number),
      available,
    );
    if (widths) return { shown, widths };
    const optional = shown.filter((index) => columns[index]?.priority !== undefined);
    if (optional.length === 0) return undefined;
    const lowest = optional.reduce((low, index) => ((columns[index]?.priority as number) < (columns[low]?.priority as number) ? index : low));
    shown.splice(shown.indexOf(lowest), 1);
  }
}

/** Every column cut down as far as MIN_COLUMN_WIDTH: a headerless table narrower than any layout. */
function squeezedLayout(columns: readonly GridColumn[], natural: readonly number[], available: number): RowLayout {
  const minimum = natural.map((width) => Math.min(width, MIN_COLUMN_WIDTH));
  return { shown: columns.map((_, index) => index), widths: fitColumnWidths(natural, minimum, available) ?? minimum };
}

/** A cell's lines at `width`: wrapped, cut or whole, as its column fits. */
function cellLines(text: GridText | undefined, fit: ColumnFit | undefined, width: number): readonly string[] {
  const lines = linesOf(text);
  switch (fit ?? 'cut') {
    case 'whole':
      return lines;
    case 'cut':
      return lines.map((line) => truncateToWidth(line, width));
    case 'wrap':
      return lines.flatMap((line) => wrapToWidth(line, width, lines.length > 1 ? LIST_HANG : 0));
    case 'words':
      return lines.flatMap((line) => wrapToWidth(line, width));
  }
}

/**
 * The table's lines, each without its line break. Written here rather than with cli-table3,
 * whose layout is quadratic in the number of rows (docs/formats.md).
 *
 * Off a terminal every column is drawn whole. On one, columns give way as they fit (GridColumn),
 * and optional ones are left out; when a row still cannot fit, a table with a header is drawn
 * in the vertical layout (verticalLines) and one without is cut down to fit. No rows, no lines.
 */
export function* gridLines(columns: readonly GridColumn[], body: GridBody, target: OutputTarget, withHeader = true): Generator<string> {
  if (columns.length === 0 || body.texts.length === 0) return;
  const head = withHeader ? columns.map((column) => cellText(column.header)) : undefined;
  const natural = columns.map((_, index) => {
    let widest = head ? displayWidth(head[index] ?? '') : 0;
    for (const row of body.texts) widest = Math.max(widest, widthOf(row[index]));
    return widest;
  });
  let layout: RowLayout = { shown: columns.map((_, index) => index), widths: natural };
  let fits = (index: number): ColumnFit | undefined => columns[index]?.fit;
  if (target.isTTY && target.width) {
    const minimum = columns.map((column, index) => minimumWidth(column, natural[index] as number, body.texts, index));
    const fitted = rowLayout(columns, natural, minimum, target.width);
    if (fitted) {
      layout = fitted;
    } else if (head) {
      yield* verticalLines(head, body, target, target.width);
      return;
    } else {
      layout = squeezedLayout(columns, natural, target.width);
      fits = () => 'cut';
    }
  }
  const { shown, widths } = layout;
  const rule = (left: string, middle: string, right: string): string =>
    `${left}${widths.map((width) => '─'.repeat(width + CELL_PADDING)).join(middle)}${right}`;
  function* row(texts: readonly (GridText | undefined)[], style: (column: number) => Style | undefined): Generator<string> {
    const cells = shown.map((index, position) => cellLines(texts[index], fits(index), widths[position] as number));
    const height = Math.max(...cells.map((lines) => lines.length));
    for (let line = 0; line < height; line++) {
      const parts = shown.map((index, position) => {
        const text = cells[position]?.[line] ?? '';
        const width = widths[position] as number;
        const padding = ' '.repeat(Math.max(0, width - displayWidth(text)));
        const cellStyle = style(index);
        const shownText = cellStyle ? paint(target.color, cellStyle, text) : text;
        return columns[index]?.align === 'right' ? `${padding}${shownText}` : `${shownText}${padding}`;
      });
      yield `│ ${parts.join(' │ ')} │`;
    }
  }
  yield rule('┌', '┬', '┐');
  if (head) {
    yield* row(head, () => 'bold');
    yield rule('├', '┼', '┤');
  }
  const detailWidth = rowWidth(widths) - 2 * CELL_PADDING;
  for (const [index, texts] of body.texts.entries()) {
    yield* row(texts, (column) => body.styleOf?.(index, column));
    if (body.detail) yield* detailLines(body.detail.labels, body.detail.texts[index] ?? [], detailWidth, target.color);
  }
  yield rule('└', '┴', '┘');
}

/** Items joined by `separator` into lines of at most `width`, an item broken only when wider than a line. */
function joinWithin(items: readonly string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const joined = line === '' ? item : `${line}${separator}${item}`;
    if (displayWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    const parts = wrapToWidth(item, width);
    line = parts.pop() ?? '';
    lines.push(...parts);
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * A row's detail (GridBody) across the table's inside width, indented under the row's first
 * cell so that it reads as the row's and not as the next: `│   charge type Per Share · symbol VIX │`.
 * Dim where colour is allowed, the row above standing out.
 */
function* detailLines(labels: readonly string[], texts: readonly string[], width: number, color: boolean): Generator<string> {
  const pairs = labels.flatMap((label, index) => (texts[index] ? [`${label.toLowerCase()} ${texts[index]}`] : []));
  if (pairs.length === 0) return;
  const indent = ' '.repeat(Math.min(DETAIL_INDENT, width - 1));
  for (const line of joinWithin(pairs, ' · ', width - indent.length)) {
    yield `│ ${indent}${paint(color, 'dim', line)}${' '.repeat(Math.max(0, width - indent.length - displayWidth(line)))} │`;
  }
}

/**
 * One block per record, as psql's expanded display (`\x`): a rule naming the record, then a
 * `label  value` line per column, values wrapped (never cut) to the width. For a record that
 * cannot fit in a row.
 */
function* verticalLines(columnLabels: readonly string[], body: GridBody, target: OutputTarget, width: number): Generator<string> {
  const labels = [...columnLabels, ...(body.detail?.labels ?? [])];
  const labelWidth = Math.max(...labels.map(displayWidth));
  const valueWidth = Math.max(1, width - labelWidth - LABEL_GAP.length);
  const rows = body.texts.map((texts, index) => [...texts, ...(body.detail?.texts[index] ?? [])]);
  let widestValue = 0;
  for (const row of rows) for (const text of row) widestValue = Math.max(widestValue, widthOf(text));
  const blockWidth = Math.min(width, labelWidth + LABEL_GAP.length + widestValue);
  for (const [index, texts] of rows.entries()) {
    const title = `─[ record ${index + 1} ]`;
    yield `${title}${'─'.repeat(Math.max(0, blockWidth - displayWidth(title)))}`;
    for (const [column, label] of labels.entries()) {
      const values = linesOf(texts[column]);
      const lines = values.flatMap((line) => wrapToWidth(line, valueWidth, values.length > 1 ? LIST_HANG : 0));
      const style = body.styleOf?.(index, column);
      for (const [position, line] of lines.entries()) {
        const left = position === 0 ? `${paint(target.color, 'bold', label)}${' '.repeat(labelWidth - displayWidth(label))}` : ' '.repeat(labelWidth);
        const value = style ? paint(target.color, style, line) : line;
        yield `${left}${LABEL_GAP}${value}`.trimEnd();
      }
    }
  }
}

function textOf(cell: GridCell | undefined): GridText {
  if (cell === undefined) return '';
  const text = typeof cell === 'object' && 'style' in cell ? cell.text : cell;
  return typeof text === 'string' ? cellText(text) : text.map(cellText);
}

function styleOf(rows: readonly (readonly GridCell[])[]) {
  return (row: number, column: number): Style | undefined => {
    const cell = rows[row]?.[column];
    return typeof cell === 'object' && 'style' in cell ? cell.style : undefined;
  };
}

function joinLines(lines: Iterable<string>): string {
  let text = '';
  for (const line of lines) text += `${line}\n`;
  return text;
}

/**
 * A table with a header row. On a terminal it fits the width as its columns allow (gridLines);
 * elsewhere nothing is cut. Colour (a bold header, styled cells) only when the target allows it.
 */
export function renderGrid(columns: readonly GridColumn[], rows: readonly (readonly GridCell[])[], target: OutputTarget): string {
  const texts = rows.map((row) => columns.map((_, index) => textOf(row[index])));
  return joinLines(gridLines(columns, { texts, styleOf: styleOf(rows) }, target));
}

/** Label and value pairs, one per line: the summary of a resource. Labels stay whole; values wrap. */
export function renderKeyValueTable(pairs: readonly (readonly [label: string, value: GridCell])[], target: OutputTarget): string {
  const rows = pairs.map(([label, value]): GridCell[] => [{ text: label, style: 'bold' }, value]);
  const texts = rows.map((row) => row.map(textOf));
  return joinLines(gridLines([{ header: '', fit: 'whole' }, { header: '', fit: 'wrap' }], { texts, styleOf: styleOf(rows) }, target, false));
}
