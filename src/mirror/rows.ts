import { FEE_SCHEDULE_RESULT_FIELD_NAMES, FEE_SCHEDULE_RESULT_FIELDS } from '../api/fields.js';
import { malformedAnswer, recordNamed } from '../api/results-page.js';
import type { FeeScheduleResult } from '../api/types.js';
import { formatTimestampMicros, isFormattedTimestamp, parseTimestampMicros } from '../core/timestamps.js';

/** A field's value as the mirror stores it: text, microseconds for a timestamp, or null. */
export type StoredValue = string | bigint | null;

/**
 * A record as the mirror stores it: the 26 values in the document's order, and the text of a
 * timestamp the service spelled otherwise than `formatTimestampMicros` would (another offset,
 * fewer digits), so that the record reads back byte for byte.
 */
export interface StoredRecord {
  values: StoredValue[];
  scrapedTimeText: string | null;
  createdOnText: string | null;
}

const SCRAPED_TIME = FEE_SCHEDULE_RESULT_FIELDS.findIndex((field) => field.name === 'scraped_time');

/**
 * A record of the service, checked for the mirror's types: each field text or null, the two
 * timestamps real ones. Anything else is a malformed answer: the mirror holds true types, and a
 * value it cannot hold as the service sent it is not silently changed.
 */
export function toStoredRecord(record: FeeScheduleResult, host: string): StoredRecord {
  const source = record as unknown as Record<string, unknown>;
  let scrapedTimeText: string | null = null;
  let createdOnText: string | null = null;
  const values = FEE_SCHEDULE_RESULT_FIELDS.map((field, index): StoredValue => {
    const value = source[field.name] ?? null;
    if (field.kind === 'string') {
      if (value === null || typeof value === 'string') return value;
      throw malformedAnswer(host, `${recordNamed(record.id)} has a ${typeof value} as ${field.name}, not text`);
    }
    const micros = typeof value === 'string' ? parseTimestampMicros(value) : undefined;
    if (micros === undefined) throw malformedAnswer(host, `${recordNamed(record.id)} has a ${field.name} that is not an ISO 8601 timestamp`);
    if (!isFormattedTimestamp(value as string, field.kind === 'timestamp_utc')) {
      if (index === SCRAPED_TIME) scrapedTimeText = value as string;
      else createdOnText = value as string;
    }
    return micros;
  });
  return { values, scrapedTimeText, createdOnText };
}

/** The timestamp fields: where each is among the values, and whether it is an instant (`+00:00`). */
const TIMESTAMP_FIELDS = FEE_SCHEDULE_RESULT_FIELDS.flatMap((field, index) =>
  field.kind === 'string' ? [] : [{ index, name: field.name, withOffset: field.kind === 'timestamp_utc' }],
);

/**
 * A row of `results r LEFT JOIN mkt_timestamp_text t` as one JSON array, for `RecordReader`: the
 * 26 values in the document's order, a timestamp as the text of its microseconds (a JSON number
 * may not hold them exactly), then the spellings kept of the timestamps. One text a row is
 * parsed at once, where @duckdb/node-api would convert 28 columns value by value.
 */
export const ROW_AS_JSON = `json_array(${FEE_SCHEDULE_RESULT_FIELDS.map((field) =>
  field.kind === 'string' ? `r.${field.name}` : `epoch_us(r.${field.name})::VARCHAR`,
).join(', ')}, ${TIMESTAMP_FIELDS.map((field) => `t.${field.name}`).join(', ')})::VARCHAR`;

/**
 * Makes the records that rows of ROW_AS_JSON were stored from. Records read together mostly
 * share their timestamps (a version's records all do), so each field's last one formatted is kept.
 */
export class RecordReader {
  private readonly lastFormatted = TIMESTAMP_FIELDS.map(() => ({ micros: '', text: undefined as string | undefined }));

  read(json: string): Record<string, unknown> {
    const row = JSON.parse(json) as (string | null)[];
    // V8 fills in a copy of a record that has every field faster than it adds them one by one to {}.
    const record: Record<string, unknown> = { ...EMPTY_RECORD };
    FEE_SCHEDULE_RESULT_FIELD_NAMES.forEach((name, index) => {
      record[name] = row[index] ?? null;
    });
    TIMESTAMP_FIELDS.forEach((field, position) => {
      const micros = row[field.index];
      if (typeof micros !== 'string') return;
      const spelled = row[FEE_SCHEDULE_RESULT_FIELDS.length + position];
      if (typeof spelled === 'string') {
        record[field.name] = spelled;
        return;
      }
      const last = this.lastFormatted[position]!;
      if (last.micros !== micros) {
        last.micros = micros;
        last.text = formatTimestampMicros(BigInt(micros), field.withOffset);
      }
      record[field.name] = last.text;
    });
    return record;
  }
}

/**
 * A record's 26 fields as one JSON array, in the document's order, as the service spelled them:
 * the same text for the same content, whether the record came from a page or from the mirror
 * (RecordReader). What a sync compares to tell a record the service now answers differently.
 */
export function recordText(record: FeeScheduleResult | Readonly<Record<string, unknown>>): string {
  return JSON.stringify(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => record[name] ?? null));
}

const EMPTY_RECORD: Readonly<Record<string, null>> = Object.fromEntries(FEE_SCHEDULE_RESULT_FIELD_NAMES.map((name) => [name, null]));
