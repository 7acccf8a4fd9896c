import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import type { ColumnKind } from '../../../src/output/exporter.js';
import { chunkStatistics, compareUtf8, setChunkStatistics } from '../../../src/output/parquet-statistics.js';

/** A generator of the same pseudo-random numbers in [0, 1) on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('compareUtf8', () => {
  it('orders strings as their UTF-8 bytes, lone surrogates written as U+FFFD', () => {
    const pieces = ['a', 'z', 'é', '\u07ff', '\ud7ff', '\ue000', 'ｆ', '\ufffd', '\uffff', '🚀', '😀', '\u{10ffff}', '\ud800', '\udc00'];
    const next = random(7);
    const text = (): string => Array.from({ length: Math.floor(next() * 4) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    for (let trial = 0; trial < 20_000; trial++) {
      const [left, right] = [text(), text()];
      expect(Math.sign(compareUtf8(left, right)), `${JSON.stringify(left)} against ${JSON.stringify(right)}`).toBe(
        Math.sign(Buffer.compare(Buffer.from(left), Buffer.from(right))),
      );
    }
  });
});

const KINDS: Record<string, { kind: ColumnKind; element: SchemaElement }> = {
  venue: { kind: 'string', element: { name: 'venue', repetition_type: 'OPTIONAL', type: 'BYTE_ARRAY', converted_type: 'UTF8' } },
  note: { kind: 'string', element: { name: 'note', repetition_type: 'REQUIRED', type: 'BYTE_ARRAY', converted_type: 'UTF8' } },
  wide: { kind: 'string', element: { name: 'wide', repetition_type: 'REQUIRED', type: 'BYTE_ARRAY', converted_type: 'UTF8' } },
  missing: { kind: 'string', element: { name: 'missing', repetition_type: 'OPTIONAL', type: 'BYTE_ARRAY', converted_type: 'UTF8' } },
  amount: { kind: 'number', element: { name: 'amount', repetition_type: 'OPTIONAL', type: 'DOUBLE' } },
  zero: { kind: 'number', element: { name: 'zero', repetition_type: 'REQUIRED', type: 'DOUBLE' } },
  active: { kind: 'boolean', element: { name: 'active', repetition_type: 'OPTIONAL', type: 'BOOLEAN' } },
  scraped: {
    kind: 'timestamp_utc',
    element: {
      name: 'scraped',
      repetition_type: 'OPTIONAL',
      type: 'INT64',
      converted_type: 'TIMESTAMP_MICROS',
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
    },
  },
};

/** Two row groups of every kind: repeats and nulls, a column of long distinct strings over several pages, NaN and signed zeros. */
function rowGroups(): Record<string, (string | number | boolean | bigint | null)[]>[] {
  const next = random(11);
  const venues = [null, 'NYSE', 'ＣＢＯＥ', '🚀 venue', 'émigré', '\ue000 private', 'nyse'];
  return [20_000, 7_000].map((rows, group) => {
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
    return {
      venue: Array.from({ length: rows }, () => pick(venues)),
      note: Array.from({ length: rows }, (_, row) => `${pick(['Ｆee', 'fee', '😀 fee', 'Fee'])} note ${group}-${row} ${'x'.repeat(50)}`),
      // Only characters at or above U+D800, whose UTF-16 order is not their UTF-8 order. The first
      // group opens with its minimum, U+E000, then holds only emoji (surrogate pairs).
      wide: Array.from({ length: rows }, (_, row) =>
        group === 0 ? (row === 0 ? '\ue000' : pick(['🚀', '😀', '🚀ｆ'])) : row === 0 ? '🚀' : pick(['🚀', '\ue000', 'ｆ', '😀', '\uffff', 'ｆ🚀', '🚀ｆ']),
      ),
      missing: Array.from({ length: rows }, () => null),
      amount: Array.from({ length: rows }, () => pick([null, Number.NaN, -0, 0, 0.25, -1.5, next() * 100 - 50])),
      zero: Array.from({ length: rows }, () => pick([-0, 0])),
      active: Array.from({ length: rows }, () => pick([null, true, false])),
      scraped: Array.from({ length: rows }, () => pick([null, 1_717_171_717_000_000n + BigInt(Math.floor(next() * 1e9)), -5n])),
    };
  });
}

/** The file hyparquet-writer writes, with its statistics or, when `ours`, with chunkStatistics. */
function write(ours: boolean): Uint8Array {
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({
    writer,
    schema: [{ name: 'root', num_children: Object.keys(KINDS).length }, ...Object.values(KINDS).map(({ element }) => element)],
    codec: 'UNCOMPRESSED',
  });
  for (const group of rowGroups()) {
    const names = Object.keys(KINDS);
    parquet.write({ columnData: names.map((name) => ({ name, data: group[name] ?? [], statistics: !ours })), rowGroupSize: group.venue?.length });
    if (ours) setChunkStatistics(parquet, names.map((name) => chunkStatistics(KINDS[name]?.kind ?? 'string', group[name] ?? [])));
  }
  parquet.finish();
  return writer.getBytes();
}

describe('chunkStatistics and setChunkStatistics', () => {
  it('make the file hyparquet-writer makes with its own statistics, byte for byte', () => {
    const theirs = write(false);
    const ours = write(true);
    expect(ours.length).toBe(theirs.length);
    expect(Buffer.compare(Buffer.from(ours), Buffer.from(theirs))).toBe(0);
  });

  it('count NaN apart from the bounds, and bound zeros as -0 and +0', () => {
    const statistics = chunkStatistics('number', [0, Number.NaN, null, -0, Number.NaN]);
    expect(statistics).toEqual({ min_value: -0, max_value: 0, null_count: 1n, nan_count: 2n });
    expect(Object.is(statistics.min_value, -0)).toBe(true);
    expect(Object.is(statistics.max_value, 0)).toBe(true);
  });
});
