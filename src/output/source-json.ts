import type { SourceJson } from './exporter.js';

const NONE = Buffer.alloc(0);

/** `prefix`, then the records of `source` with `separator` between them, then `suffix`: one chunk. */
export function joinSource(
  { bytes, spans }: SourceJson,
  separator: Buffer,
  { prefix = NONE, suffix = NONE }: { prefix?: Buffer; suffix?: Buffer } = {},
): Buffer {
  const records = spans.length / 2;
  let length = prefix.length + separator.length * Math.max(records - 1, 0) + suffix.length;
  for (let index = 0; index < spans.length; index += 2) length += (spans[index + 1] as number) - (spans[index] as number);
  const chunk = Buffer.allocUnsafe(length);
  let at = prefix.copy(chunk, 0);
  for (let index = 0; index < spans.length; ) {
    if (index > 0) at += separator.copy(chunk, at);
    // Records whose gaps in the body are as long as the separator are copied as one run, and the
    // separator then written over each gap: the records of an array sent without whitespace
    // between them, joined by newlines, are a single copy rather than one per record.
    let next = index + 2;
    while (next < spans.length && (spans[next] as number) - (spans[next - 1] as number) === separator.length) next += 2;
    const runStart = spans[index] as number;
    const runEnd = spans[next - 1] as number;
    bytes.copy(chunk, at, runStart, runEnd);
    for (let gap = index + 1; gap < next - 1; gap += 2) {
      const gapAt = at + (spans[gap] as number) - runStart;
      for (let offset = 0; offset < separator.length; offset++) chunk[gapAt + offset] = separator[offset] as number;
    }
    at += runEnd - runStart;
    index = next;
  }
  suffix.copy(chunk, at);
  return chunk;
}
