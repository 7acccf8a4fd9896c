import type { Writable } from 'node:stream';

export const FORMATS = ['table', 'json', 'ndjson', 'csv', 'parquet'] as const;
export type Format = (typeof FORMATS)[number];

export type JsonObject = { [key: string]: unknown };

/** How a tabular column is typed in Parquet (and aligned in tables). */
export type ColumnKind = 'string' | 'number' | 'boolean' | 'timestamp_utc' | 'timestamp_local';

export interface Column {
  /** Dotted for nested fields: `fee_schedule.maker_fee`. */
  name: string;
  kind: ColumnKind;
  nullable: boolean;
}

/** Records as the service sent them: UTF-8 JSON, each record a span of `bytes` on one line. */
export interface SourceJson {
  bytes: Buffer;
  /** [start, end) of each record in `bytes`, in order: [start₀, end₀, start₁, end₁, …]. */
  spans: readonly number[];
}

/** Records that arrive together: one page of results, or the whole of a small answer. */
export interface RecordBatch<Item extends object = object> {
  records: readonly Item[];
  /**
   * The same records' JSON as the service sent it, when that is known and on one line; the JSON
   * formats write it as it is rather than serializing each record again. Worked out on demand.
   */
  source?: () => SourceJson | undefined;
  /**
   * The records' strings are byte strings: each character one byte of the service's UTF-8
   * (src/http/body-text.ts). Text built from them is written with the `latin1` encoding, which
   * gives those bytes back. Only the formats in BYTE_STRING_FORMATS take such batches.
   */
  byteStrings?: boolean;
}

/**
 * The formats that take byte strings. JSON, NDJSON and CSV write strings only as bytes, never
 * measuring or re-encoding them. Parquet turns each string value back into text
 * (fromByteString), which costs less than reading every page as UTF-8.
 */
export const BYTE_STRING_FORMATS: ReadonlySet<Format> = new Set(['json', 'ndjson', 'csv', 'parquet']);

const BEYOND_ASCII = /[^\x00-\x7f]/;

/** The text a byte string stands for: itself when ASCII, else its bytes read as UTF-8. */
export function fromByteString(text: string): string {
  return BEYOND_ASCII.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text;
}

/** A batch's text as its bytes: `latin1` for byte strings, else UTF-8 (left to the stream). */
export function batchText(batch: Pick<RecordBatch, 'byteStrings'>, text: string): string | Buffer {
  return batch.byteStrings ? Buffer.from(text, 'latin1') : text;
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
  /** The objects as the service sent them, in order, a batch at a time. Pulled lazily: pages stream through. */
  batches: AsyncIterable<RecordBatch<Item>>;
  /**
   * Columns of the flattened rows when known ahead (results: the document's fields, in order).
   * When absent, tabular formats derive them by flattening the records.
   */
  columns?: readonly Column[];
  /** `--columns`: which fields, in which order, in every format. Dotted names reach nested fields. */
  select?: readonly string[];
  /** Table format only: the columns shown when `select` is absent. */
  tableColumns?: readonly string[];
}

/** Where an exporter writes, and what it may assume about it. */
export interface OutputTarget {
  stream: Writable;
  /** A terminal: colour, width and truncation apply only then. */
  isTTY: boolean;
  color: boolean;
  /** Terminal width in characters, when isTTY. */
  width?: number;
}

/** One per format. Writes every record, in order, respecting the stream's backpressure. */
export interface Exporter {
  write(dataset: Dataset<JsonObject>, target: OutputTarget): Promise<void>;
}

/** Records already in hand, as a dataset's batches. */
export async function* inOneBatch<Item extends object>(records: readonly Item[]): AsyncGenerator<RecordBatch<Item>> {
  yield { records };
}
