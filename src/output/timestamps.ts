const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The offset from UTC in seconds; undefined when out of range (`+24:00`, `+05:60`). */
function offsetSeconds(offset: string | undefined): number | undefined {
  if (offset === undefined || offset === 'Z' || offset === 'z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 3600 + minutes * 60);
}

/**
 * Microseconds since 1970-01-01T00:00:00 of an ISO 8601 timestamp, read from its text because a
 * JS Date would drop the microseconds. With an offset (`Z`, `+00:00`, `-0500`) the result is the
 * UTC instant; without one, the wall clock as written. Digits past the sixth of the fraction
 * are dropped. Undefined when the text is not such a timestamp or names an impossible time.
 */
export function parseTimestampMicros(text: string): bigint | undefined {
  const match = ISO_TIMESTAMP.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', offset] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return undefined;
  const monthDays = mo === 2 && isLeapYear(y) ? 29 : (DAYS_IN_MONTH[mo - 1] as number);
  if (d < 1 || d > monthDays) return undefined;
  const offsetFromUtc = offsetSeconds(offset);
  if (offsetFromUtc === undefined) return undefined;
  const seconds = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offsetFromUtc;
  const micros = Number(fraction.padEnd(6, '0').slice(0, 6));
  const total = seconds * 1_000_000 + micros;
  // Exact in a double until the year 2255; beyond, in BigInt arithmetic.
  return Number.isSafeInteger(total) ? BigInt(total) : BigInt(seconds) * 1_000_000n + BigInt(micros);
}
