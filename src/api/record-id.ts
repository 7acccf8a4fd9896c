/**
 * Which edition of the service's documentation an answer follows: `interface` for
 * shared/service-interface.md (flat envelope, `id`, display-case values), `2026` for
 * shared/service-2026.md (`{data, meta}`, `record_id`, snake_case values). mkt tells them apart
 * from the answer itself (docs/service-shapes.md).
 */
export type ServiceShape = 'interface' | '2026';

/** The names a record's id goes by: `id` in the interface document, `record_id` in the 2026 edition. */
export const RECORD_ID_FIELDS = { interface: 'id', '2026': 'record_id' } as const satisfies Record<ServiceShape, string>;

/**
 * Longest id a page may carry: the service's are UUIDs (36 characters). A walk keeps every id it
 * has seen, so ids without a bound would let a server grow mkt's memory without one.
 */
export const MAX_ID_LENGTH = 256;

/** The shape a record follows: the 2026 edition's when it carries `record_id`. */
export function shapeOfRecord(record: object): ServiceShape {
  return typeof (record as { record_id?: unknown }).record_id === 'string' ? '2026' : 'interface';
}

/** A checked record's id (src/api/results-page.ts makes sure it has one), whichever name it goes by. */
export function recordIdOf(record: object): string {
  return (record as Record<string, string>)[RECORD_ID_FIELDS[shapeOfRecord(record)]] as string;
}
