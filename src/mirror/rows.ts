import { CITATION_FIELDS, FEE_SCHEDULE_RESULT_2026_FIELDS, FEE_SCHEDULE_RESULT_FIELDS, FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS, type FieldSpec } from '../api/fields.js';
import { RECORD_ID_FIELDS, type ServiceShape, shapeOfRecord } from '../api/record-id.js';
import { malformedAnswer, recordNamed } from '../api/results-page.js';
import { formatTimestampMicros, isFormattedTimestamp, parseTimestampMicros } from '../core/timestamps.js';

/** A field's value as the mirror stores it: text, a whole number, microseconds for a timestamp, or null. */
export type StoredValue = string | number | bigint | null;

/**
 * The columns of a mirror's `results`, per the shape of its records (docs/mirror.md): the
 * interface document's 26 fields, then the citation fields; or the 2026 edition's fields, in
 * its order. The record's id comes first in both.
 */
export const MIRROR_FIELDS: Readonly<Record<ServiceShape, readonly FieldSpec[]>> = {
  interface: FEE_SCHEDULE_RESULT_FIELDS_WITH_CITATIONS,
  '2026': FEE_SCHEDULE_RESULT_2026_FIELDS,
};

/** Where a field is among the values of a record of the shape: -1 when it has none. */
export const mirrorIndex = (shape: ServiceShape, name: string): number => MIRROR_FIELDS[shape].findIndex((field) => field.name === name);

/**
 * A record as the mirror stores it: its shape, the values of its shape's MIRROR_FIELDS, and the
 * text of a timestamp the service spelled otherwise than `formatTimestampMicros` would (another
 * offset, fewer digits, `Z`), so that the record reads back byte for byte.
 */
export interface StoredRecord {
  shape: ServiceShape;
  values: StoredValue[];
  scrapedTimeText: string | null;
  createdOnText: string | null;
}

/**
 * A record of the service, of either shape, checked for the mirror's types: each field text or
 * null, page_number a whole number or null, the timestamps its shape has real ones. Anything
 * else is a malformed answer: the mirror holds true types, and a value it cannot hold as the
 * service sent it is not silently changed. relationships is kept as its JSON text.
 */
export function toStoredRecord(record: object, host: string): StoredRecord {
  const source = record as Record<string, unknown>;
  const shape = shapeOfRecord(record);
  let scrapedTimeText: string | null = null;
  let createdOnText: string | null = null;
  const named = () => recordNamed(source[RECORD_ID_FIELDS[shape]] as string);
  const values = MIRROR_FIELDS[shape].map((field): StoredValue => {
    const key = field.name;
    const value = source[key] ?? null;
    switch (field.kind) {
      case 'string':
        if (value === null || typeof value === 'string') return value;
        throw malformedAnswer(host, `${named()} has a ${typeof value} as ${key}, not text`);
      case 'integer':
        if (value === null || Number.isSafeInteger(value)) return value as number | null;
        throw malformedAnswer(host, `${named()} has ${typeof value === 'number' ? value : `a ${typeof value}`} as ${key}, not a whole number`);
      case 'json':
        return value === null ? null : JSON.stringify(value);
    }
    const micros = typeof value === 'string' ? parseTimestampMicros(value) : undefined;
    if (micros === undefined) throw malformedAnswer(host, `${named()} has a ${key} that is not an ISO 8601 timestamp`);
    if (!isFormattedTimestamp(value as string, field.kind === 'timestamp_utc')) {
      if (key === 'scraped_time') scrapedTimeText = value as string;
      else createdOnText = value as string;
    }
    return micros;
  });
  return { shape, values, scrapedTimeText, createdOnText };
}

/** Each shape's timestamp fields: where each is among the values, and whether it is an instant (`+00:00`). */
const TIMESTAMP_FIELDS: Readonly<Record<ServiceShape, readonly { index: number; name: string; withOffset: boolean }[]>> = {
  interface: timestampFields('interface'),
  '2026': timestampFields('2026'),
};

function timestampFields(shape: ServiceShape) {
  return MIRROR_FIELDS[shape].flatMap((field, index) =>
    field.kind === 'timestamp_utc' || field.kind === 'timestamp_local' ? [{ index, name: field.name, withOffset: field.kind === 'timestamp_utc' }] : [],
  );
}

/**
 * A row of `results r LEFT JOIN mkt_timestamp_text t` as one JSON array, for `RecordReader`: the
 * values of the shape's MIRROR_FIELDS, a timestamp as the text of its microseconds (a JSON
 * number may not hold them exactly), then the spellings kept of the timestamps. One text a row is parsed at
 * once, where @duckdb/node-api would convert 32 columns value by value. `present`: the columns
 * the mirror has; a mirror an earlier mkt made, opened to read, lacks the citation ones, which
 * read as null.
 */
export function rowAsJson(shape: ServiceShape, present: ReadonlySet<string>): string {
  const value = (field: FieldSpec) => {
    if (!present.has(field.name)) return 'NULL';
    return field.kind === 'timestamp_utc' || field.kind === 'timestamp_local' ? `epoch_us(r.${field.name})::VARCHAR` : `r.${field.name}`;
  };
  return `json_array(${MIRROR_FIELDS[shape].map(value).join(', ')}, ${TIMESTAMP_FIELDS[shape].map((field) => `t.${field.name}`).join(', ')})::VARCHAR`;
}

/** Each key of a record of the shape, in the shape's order, and the column of its MIRROR_FIELDS it is read from. */
const READ_ORDER: Readonly<Record<ServiceShape, readonly (readonly [string, number])[]>> = {
  interface: FEE_SCHEDULE_RESULT_FIELDS.map((field) => [field.name, mirrorIndex('interface', field.name)] as const),
  '2026': FEE_SCHEDULE_RESULT_2026_FIELDS.map((field, index) => [field.name, index] as const),
};
const CITATION_COLUMNS = CITATION_FIELDS.map((field) => [field.name, mirrorIndex('interface', field.name)] as const);

/**
 * Makes the records that rows of rowAsJson were stored from, in the mirror's shape, as the
 * service sent them: an interface record has the citation fields only when it carried one.
 * Records read together mostly share their timestamps (a version's records all do), so each
 * field's last one formatted is kept.
 */
export class RecordReader {
  private readonly timestamps: (typeof TIMESTAMP_FIELDS)[ServiceShape];
  private readonly lastFormatted: { micros: string; text: string | undefined }[];
  private readonly order: readonly (readonly [string, number])[];
  private readonly empty: Readonly<Record<string, null>>;
  private readonly jsonColumn: number;

  constructor(private readonly shape: ServiceShape = 'interface') {
    this.timestamps = TIMESTAMP_FIELDS[shape];
    this.lastFormatted = this.timestamps.map(() => ({ micros: '', text: undefined }));
    this.jsonColumn = mirrorIndex(shape, 'relationships');
    this.order = READ_ORDER[shape];
    this.empty = Object.fromEntries(this.order.map(([key]) => [key, null]));
  }

  read(json: string): Record<string, unknown> {
    const row = JSON.parse(json) as unknown[];
    this.timestamps.forEach((field, position) => {
      const micros = row[field.index];
      if (typeof micros !== 'string') return;
      const spelled = row[MIRROR_FIELDS[this.shape].length + position];
      if (typeof spelled === 'string') {
        row[field.index] = spelled;
        return;
      }
      const last = this.lastFormatted[position]!;
      if (last.micros !== micros) {
        last.micros = micros;
        last.text = formatTimestampMicros(BigInt(micros), field.withOffset);
      }
      row[field.index] = last.text;
    });
    if (typeof row[this.jsonColumn] === 'string') row[this.jsonColumn] = JSON.parse(row[this.jsonColumn] as string);
    // V8 fills in a copy of a record that has every field faster than it adds them one by one to {}.
    const record: Record<string, unknown> = { ...this.empty };
    for (const [key, index] of this.order) record[key] = row[index] ?? null;
    if (this.shape === 'interface' && CITATION_COLUMNS.some(([, index]) => row[index] != null)) {
      for (const [key, index] of CITATION_COLUMNS) record[key] = row[index] ?? null;
    }
    return record;
  }
}

/**
 * A record's values in its shape's MIRROR_FIELDS order, as one JSON array, as the service spelled them:
 * the same text for the same content, whether the record came from a page or from the mirror
 * (RecordReader). What a sync compares to tell a record the service now answers differently.
 */
export function recordText(record: object): string {
  const source = record as Readonly<Record<string, unknown>>;
  return JSON.stringify(MIRROR_FIELDS[shapeOfRecord(record)].map((field) => source[field.name] ?? null));
}
