import type { FieldSpec } from '../api/fields.js';
import { recordIdOf, type ServiceShape } from '../api/record-id.js';
import { malformedAnswer, recordNamed } from '../api/results-page.js';
import { isJsonObject } from '../core/json-object.js';
import { formatTimestampMicros } from '../core/timestamps.js';
import { mirrorIndex, toStoredRecord } from '../mirror/rows.js';

/** A record as a RECORD message carries it, with what the bookmark needs of it. */
export interface SingerRecord {
  id: string;
  /** Its created_on as sent (RFC 3339) and in microseconds; undefined for a 2026 record. */
  createdOn: { text: string; micros: bigint } | undefined;
  record: Record<string, unknown>;
}

/**
 * A service record as its SCHEMA describes it: the selected fields of its shape, in the shape's
 * order, each checked as the mirror checks them (toStoredRecord) and against its nullability, so
 * that every RECORD validates against the SCHEMA before it. Timestamps are written in RFC 3339,
 * as JSON Schema's date-time wants: `+00:00` after the UTC instant, and after created_on, which
 * the service writes without an offset, read as UTC. Anything else is a malformed answer.
 */
export function toSingerRecord(source: object, shape: ServiceShape, fields: readonly FieldSpec[], host: string): SingerRecord {
  const stored = toStoredRecord(source, host);
  const id = recordIdOf(source);
  const record: Record<string, unknown> = {};
  let createdOn: SingerRecord['createdOn'];
  for (const field of fields) {
    const value = stored.values[mirrorIndex(shape, field.name)] ?? null;
    if (value === null) {
      if (!field.nullable) throw malformedAnswer(host, `${recordNamed(id)} has no ${field.name}`);
      record[field.name] = null;
    } else if (field.kind === 'json') {
      const sent = (source as Record<string, unknown>)[field.name];
      if (!isJsonObject(sent)) throw malformedAnswer(host, `${recordNamed(id)} has a ${field.name} that is not an object`);
      record[field.name] = sent;
    } else if (typeof value === 'bigint') {
      const text = formatTimestampMicros(value, true);
      if (text === undefined) throw malformedAnswer(host, `${recordNamed(id)} has a ${field.name} outside the years 0–9999`);
      record[field.name] = text;
      if (field.name === 'created_on') createdOn = { text, micros: value };
    } else {
      record[field.name] = value;
    }
  }
  return { id, createdOn, record };
}
