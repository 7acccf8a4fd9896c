/** Dates and timestamps in the exact spellings of the service document. */

export const DAY_MS = 86_400_000;
export const MICROS_PER_MS = 1000;

/**
 * The generated history spans these fixed days (never the clock), so that the same seed gives
 * the same data whenever it runs.
 */
export const HISTORY_START_MS = Date.UTC(2022, 0, 3);
export const HISTORY_END_MS = Date.UTC(2025, 5, 30);

/** YYYY-MM-DD of a UTC instant. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** 2024-05-01T13:45:12Z: the exchange resources' timestamps. */
export function formatZulu(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** A one-entry memo: records of a page are mostly created within the same second. */
let memoSecond = Number.NaN;
let memoPrefix = '';

function formatMicros(micros: number): string {
  const second = Math.floor(micros / 1_000_000);
  if (second !== memoSecond) {
    memoSecond = second;
    memoPrefix = `${new Date(second * 1000).toISOString().slice(0, 19)}.`;
  }
  // 1_000_000 + µs has seven digits: dropping the 1 leaves the six, zero-padded.
  return memoPrefix + String(1_000_000 + micros - second * 1_000_000).slice(1);
}

/** 2024-05-01T13:45:12.123456+00:00: scraped_time, an instant with a UTC offset. */
export function formatOffsetMicros(micros: number): string {
  return `${formatMicros(micros)}+00:00`;
}

/** 2026-02-26T00:00:50.839337Z: scraped_time in the 2026 shape. */
export function formatZuluMicros(micros: number): string {
  return `${formatMicros(micros)}Z`;
}

/** 2024-05-01T13:47:00.654321: created_on, microseconds and no offset. */
export function formatLocalMicros(micros: number): string {
  return formatMicros(micros);
}

/** Days since 1970-01-01 of a strict YYYY-MM-DD calendar date, or undefined when it is not one. */
export function parseIsoDate(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  // Date.UTC rolls 2024-02-30 over to March: a real date survives the round trip.
  return formatDate(ms) === text ? ms / DAY_MS : undefined;
}
