import type { Writable } from 'node:stream';

export type JsonObject = { [key: string]: unknown };

/**
 * How a tabular column is typed in Parquet (and aligned in tables). A `number` may be a bigint
 * beyond a double's integers, written with all its digits, as may an `integer` (INT64) or an
 * `unsigned_integer` (UINT_64); a `date` is `YYYY-MM-DD`; `json`: any value, written as its JSON text.
 */
export type ColumnKind = 'string' | 'number' | 'integer' | 'unsigned_integer' | 'boolean' | 'date' | 'json' | 'timestamp_utc' | 'timestamp_local';

/** Whether a column holds numbers: aligned right in a table. */
export const isNumberKind = (kind: ColumnKind): boolean => kind === 'number' || kind === 'integer' || kind === 'unsigned_integer';

export interface Column {
  /** Dotted for nested fields: `fee_schedule.maker_fee`. */
  name: string;
  kind: ColumnKind;
  nullable: boolean;
}

/**
 * What a command hands to an exporter. `Item` is `object` for callers, so that service types
 * declared as interfaces (which have no index signature) fit; exporters get `JsonObject`s.
 */
export interface Dataset<Item extends object = object> {
  /**
   * `list`: the records form a JSON array (results).
   * `object`: exactly one record, written as the object itself (the exchange commands).
   */
  shape: 'list' | 'object';
  /** The records, in order, a batch (a page) at a time. Pulled lazily: pages stream through. */
  batches: AsyncIterable<readonly Item[]>;
  /**
   * Columns of the flattened rows when known ahead (results: the document's fields, in order),
   * or the function that declares them from the first record (undefined when there is none):
   * results of either shape have their shape's set (src/api/fields.ts). When absent, tabular
   * formats derive them by flattening the records.
   */
  columns?: readonly Column[] | ((first: JsonObject | undefined) => readonly Column[]);
  /** `--columns`: which fields, in which order, in every format. Dotted names reach nested fields. */
  select?: readonly string[];
  /**
   * The record in the shape its declared columns name, where that is not the shape JSON writes
   * whole (fees: the tiers as a list, a row each). Tabular formats flatten it into the declared
   * columns; JSON and NDJSON select `--columns` from it.
   */
  shapeForColumns?: (record: JsonObject) => JsonObject;
  /** Table format only: the columns shown when `select` is absent, with their headers. */
  tableColumns?: readonly TableColumn[];
  /** Table format only: short headers by field name, for the columns `select` names (`fee_amount` → `Amount`). */
  tableHeaders?: Readonly<Record<string, string>>;
}

/**
 * How a column gives way when the terminal is narrower than its text:
 * - `cut`: free text, cut with `…` (never inside a number: truncateToWidth);
 * - `wrap`: onto more lines of the cell, nothing left out;
 * - `words`: onto more lines at its spaces, never narrower than its widest word: amounts, which
 *   are mostly one word (`$0.0030`) but may be a sentence (`$0.0020 if ADV ≥ 0.5%, otherwise
 *   $0.0030`), and of which no digit may be cut or wrapped away;
 * - `whole`: never narrower than its widest text: numbers, dates, identifiers.
 */
export type ColumnFit = 'cut' | 'wrap' | 'words' | 'whole';

/** A column a table shows by default. */
export interface TableColumn {
  /** The field, as `--columns` names it. */
  name: string;
  /** A short header for people: `Amount` for fee_amount. */
  header: string;
  /** A column that may be left out on a narrow terminal: the lowest priority goes first (GridColumn). */
  priority?: number;
  /** How it gives way on a narrow terminal, when not as its cells suggest (src/output/table.ts). */
  fit?: ColumnFit;
  /** Shown on the line under its row (GridBody's detail) rather than as a column. */
  detail?: boolean;
}

/** Where an exporter writes, and what it may assume about it. */
export interface OutputTarget {
  stream: Writable;
  /** A terminal: colour, width and truncation apply only then. */
  isTTY: boolean;
  color: boolean;
  /** Terminal width in characters, when isTTY. */
  width?: number;
  /** CSV for a spreadsheet (`--csv-safe`): a cell that starts as a formula does is written after a `'`. */
  csvSafe?: boolean;
  /** Rows of a Parquet row group (WriteOptions.parquetRowGroupRows). */
  parquetRowGroupRows?: number;
}

/** One per format. Writes every record, in order, respecting the stream's backpressure. */
export interface Exporter {
  write(dataset: Dataset<JsonObject>, target: OutputTarget): Promise<void>;
}

/**
 * The declared columns of a dataset whose first batch is `first` (see Dataset.columns), or
 * undefined when it declares none.
 */
export function declaredColumns(dataset: Pick<Dataset, 'columns'>, first: readonly object[] | undefined): readonly Column[] | undefined {
  const { columns } = dataset;
  return typeof columns === 'function' ? columns(first?.[0] as JsonObject | undefined) : columns;
}

/**
 * The batches of a dataset whose columns are declared by its first record, with those columns:
 * the first batch is read, then handed on before the rest. Otherwise the dataset as it is.
 */
export async function withDeclaredColumns<Item extends object>(dataset: Dataset<Item>): Promise<{ columns: readonly Column[] | undefined; batches: AsyncIterable<readonly Item[]> }> {
  if (typeof dataset.columns !== 'function') return { columns: dataset.columns, batches: dataset.batches };
  const iterator = dataset.batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  const batches = (async function* () {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      // A reader that stops early (`| head`) ends the source too, as a for-await over it would.
      await iterator.return?.();
    }
  })();
  return { columns: declaredColumns(dataset, first.done ? undefined : first.value), batches };
}

/** Records already in hand, as a dataset's batches. */
export async function* inOneBatch<Item extends object>(records: readonly Item[]): AsyncGenerator<readonly Item[]> {
  yield records;
}
