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
  for (let index = 0; index < spans.length; index += 2) {
    if (index > 0) at += separator.copy(chunk, at);
    at += bytes.copy(chunk, at, spans[index], spans[index + 1]);
  }
  suffix.copy(chunk, at);
  return chunk;
}
