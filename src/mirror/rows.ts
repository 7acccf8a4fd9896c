import { FEE_SCHEDULE_RESULT_FIELDS } from '../api/fields.js';
import { malformedAnswer } from '../api/results-page.js';
import type { FeeScheduleResult } from '../api/types.js';
import { serverText } from '../http/server-text.js';
import { formatTimestampMicros, isFormattedTimestamp, parseTimestampMicros } from '../output/timestamps.js';

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
const CREATED_ON = FEE_SCHEDULE_RESULT_FIELDS.findIndex((field) => field.name === 'created_on');

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
      throw malformedAnswer(host, `record ${serverText(record.id, undefined)} has a ${typeof value} as ${field.name}, not text`);
    }
    const micros = typeof value === 'string' ? parseTimestampMicros(value) : undefined;
    if (micros === undefined) throw malformedAnswer(host, `record ${serverText(record.id, undefined)} has a ${field.name} that is not an ISO 8601 timestamp`);
    if (!isFormattedTimestamp(value as string, field.kind === 'timestamp_utc')) {
      if (index === SCRAPED_TIME) scrapedTimeText = value as string;
      else createdOnText = value as string;
    }
    return micros;
  });
  return { values, scrapedTimeText, createdOnText };
}

/** The record a stored one was made from, its fields in the document's order. */
export function toRecord(values: readonly StoredValue[], scrapedTimeText: string | null, createdOnText: string | null): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  FEE_SCHEDULE_RESULT_FIELDS.forEach((field, index) => {
    const value = values[index] ?? null;
    if (typeof value !== 'bigint') {
      record[field.name] = value;
      return;
    }
    const text = index === SCRAPED_TIME ? scrapedTimeText : index === CREATED_ON ? createdOnText : null;
    record[field.name] = text ?? formatTimestampMicros(value, field.kind === 'timestamp_utc');
  });
  return record;
}
