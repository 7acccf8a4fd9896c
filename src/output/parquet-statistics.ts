import type { ParquetWriter } from 'hyparquet-writer';
import type { ColumnKind } from './exporter.js';

/*
 * Column chunk statistics, computed here rather than by hyparquet-writer. Its statistics take
 * every value through one comparison made for every type, and were 45 ms of a 30,000-record
 * Parquet walk; these loops, one per kind, take about 20, most of it before V8 has optimized
 * them, since they run once or twice a walk (docs/performance.md). The file is byte for byte the
 * one hyparquet-writer writes with its own (test/unit/output/parquet-statistics.test.ts).
 */

type ColumnChunkMetaData = NonNullable<ParquetWriter['row_groups'][number]['columns'][number]['meta_data']>;
type Statistics = NonNullable<ColumnChunkMetaData['statistics']>;
type Value = string | number | boolean | bigint | null;

/** What hyparquet-writer's statistics hold: nan_count, for DOUBLE columns, is not in its type. */
export interface ChunkStatistics extends Statistics {
  nan_count?: bigint;
}

/**
 * The code point of `text` at `at` as UTF-8 writes it: a surrogate pair's, and U+FFFD for a
 * lone surrogate, as TextEncoder writes one.
 */
function writtenCodePoint(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdfff) return unit;
  if (unit <= 0xdbff && at + 1 < text.length) {
    const low = text.charCodeAt(at + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
  }
  return 0xfffd;
}

/**
 * Compares two strings in the order of their UTF-8 bytes, as Parquet orders UTF8 statistics:
 * by code point, which is not JavaScript's order of UTF-16 units (U+FF46 'ｆ' sorts before
 * U+1F680 '🚀' in UTF-8, after it in UTF-16).
 */
export function compareUtf8(left: string, right: string): number {
  if (left === right) return 0;
  const common = Math.min(left.length, right.length);
  let at = 0;
  while (at < common && left.charCodeAt(at) === right.charCodeAt(at)) at++;
  // A difference in the low half of a pair is a difference in the pair's code point.
  if (at > 0) {
    const before = left.charCodeAt(at - 1);
    if (before >= 0xd800 && before <= 0xdbff) at--;
  }
  while (at < left.length && at < right.length) {
    const a = writtenCodePoint(left, at);
    const b = writtenCodePoint(right, at);
    if (a !== b) return a - b;
    at += a > 0xffff ? 2 : 1;
  }
  return left.length - right.length;
}

/** A code unit at or above U+D800: a surrogate, or a character JavaScript orders after them. */
const HIGH_UNIT = /[\ud800-\uffff]/;

/**
 * JavaScript orders strings by UTF-16 unit, which is UTF-8 order wherever one side's differing
 * unit is below U+D800. So a bound without such units is compared with `<` and `>` (native and
 * fast, even before the loop is optimized: this runs once or twice a walk), and one with them
 * by compareUtf8.
 */
function stringStatistics(values: readonly Value[]): ChunkStatistics {
  let min: string | undefined;
  let max: string | undefined;
  let minIsLow = true;
  let maxIsLow = true;
  let nulls = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index] as string | null;
    if (value === null) nulls++;
    else if (min === undefined || max === undefined) {
      min = max = value;
      minIsLow = maxIsLow = !HIGH_UNIT.test(value);
    } else if (minIsLow ? value < min : compareUtf8(value, min) < 0) {
      min = value;
      minIsLow = !HIGH_UNIT.test(value);
    } else if (maxIsLow ? value > max : compareUtf8(value, max) > 0) {
      max = value;
      maxIsLow = !HIGH_UNIT.test(value);
    }
  }
  return { min_value: min, max_value: max, null_count: BigInt(nulls) };
}

/** Numbers (DOUBLE): NaN is counted, not ordered; a zero bound is -0 as a minimum, +0 as a maximum. */
function numberStatistics(values: readonly Value[]): ChunkStatistics {
  let min: number | undefined;
  let max: number | undefined;
  let nulls = 0;
  let nans = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index] as number | null;
    if (value === null) nulls++;
    else if (Number.isNaN(value)) nans++;
    else {
      if (min === undefined || value < min) min = value;
      if (max === undefined || value > max) max = value;
    }
  }
  return {
    min_value: min === 0 ? -0 : min,
    max_value: max === 0 ? 0 : max,
    null_count: BigInt(nulls),
    nan_count: BigInt(nans),
  };
}

/** Booleans and timestamps (microseconds as bigint): JavaScript's own order. */
function orderedStatistics(values: readonly Value[]): ChunkStatistics {
  let min: boolean | bigint | undefined;
  let max: boolean | bigint | undefined;
  let nulls = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index] as boolean | bigint | null;
    if (value === null) nulls++;
    else {
      if (min === undefined || value < min) min = value;
      if (max === undefined || value > max) max = value;
    }
  }
  return { min_value: min, max_value: max, null_count: BigInt(nulls) };
}

/** The statistics of a column chunk of `kind` holding `values` (null for a missing value). */
export function chunkStatistics(kind: ColumnKind, values: readonly Value[]): ChunkStatistics {
  switch (kind) {
    case 'string':
      return stringStatistics(values);
    case 'number':
      return numberStatistics(values);
    case 'boolean':
    case 'timestamp_utc':
    case 'timestamp_local':
      return orderedStatistics(values);
  }
}

/**
 * Puts `statistics`, one per column, on the row group `writer` wrote last with `statistics:
 * false`, with the page counts (encoding_stats) hyparquet-writer leaves out without them.
 */
export function setChunkStatistics(writer: ParquetWriter, statistics: readonly ChunkStatistics[]): void {
  const written = writer.pendingIndexes.slice(-statistics.length);
  for (const [index, { chunk, offsetIndex }] of written.entries()) {
    const metaData = chunk.meta_data as ColumnChunkMetaData;
    metaData.statistics = statistics[index];
    metaData.encoding_stats = [
      ...(metaData.dictionary_page_offset === undefined ? [] : [{ page_type: 'DICTIONARY_PAGE' as const, encoding: 'PLAIN' as const, count: 1 }]),
      // hyparquet-writer indexes a chunk's page offsets only when it has more than one page.
      { page_type: 'DATA_PAGE_V2' as const, encoding: metaData.encodings.at(-1) ?? 'PLAIN', count: offsetIndex?.page_locations.length ?? 1 },
    ];
  }
}
