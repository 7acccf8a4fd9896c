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

/** The number written by `count` ASCII digits of `text` from `start`; -1 if any is not a digit. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index++) {
    const digit = text.charCodeAt(index) - 0x30;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The offset from UTC in seconds of `Z`, `±HH`, `±HHMM` or `±HH:MM` at `start`, which must end
 * the text; undefined when it is none of those or out of range (`+24:00`, `+05:60`).
 */
function offsetSecondsAt(text: string, start: number): number | undefined {
  const rest = text.length - start;
  if (rest === 0) return 0;
  const lead = text[start];
  if (lead === 'Z' || lead === 'z') return rest === 1 ? 0 : undefined;
  if ((lead !== '+' && lead !== '-') || (rest !== 3 && rest !== 5 && rest !== 6)) return undefined;
  const hours = digitsAt(text, start + 1, 2);
  const minutesAt = rest === 6 ? start + 4 : start + 3;
  if (rest === 6 && text[start + 3] !== ':') return undefined;
  const minutes = rest === 3 ? 0 : digitsAt(text, minutesAt, 2);
  if (hours < 0 || minutes < 0 || hours > 23 || minutes > 59) return undefined;
  return (lead === '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
}

/**
 * Microseconds since 1970-01-01T00:00:00 of an ISO 8601 timestamp, read from its text because a
 * JS Date would drop the microseconds. With an offset (`Z`, `+00:00`, `-0500`) the result is the
 * UTC instant; without one, the wall clock as written. Digits past the sixth of the fraction
 * are dropped. Undefined when the text is not such a timestamp or names an impossible time.
 */
export function parseTimestampMicros(input: string): bigint | undefined {
  // Read by hand rather than by a regular expression: a Parquet export reads two per record,
  // and reading digits in place does not build the match arrays a regular expression would.
  const text = input.trim();
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 2);
  const d = digitsAt(text, 8, 2);
  if (y < 0 || mo < 0 || d < 0 || text[4] !== '-' || text[7] !== '-') return undefined;
  let h = 0;
  let mi = 0;
  let s = 0;
  let micros = 0;
  let at = 10;
  const separator = text[at];
  if (separator === 'T' || separator === 't' || separator === ' ') {
    h = digitsAt(text, at + 1, 2);
    mi = digitsAt(text, at + 4, 2);
    if (h < 0 || mi < 0 || text[at + 3] !== ':') return undefined;
    at += 6;
    if (text[at] === ':') {
      s = digitsAt(text, at + 1, 2);
      if (s < 0) return undefined;
      at += 3;
      if (text[at] === '.' || text[at] === ',') {
        let count = 0;
        for (let digit = digitsAt(text, ++at, 1); digit >= 0; digit = digitsAt(text, ++at, 1), count++) {
          if (count < 6) micros = micros * 10 + digit;
        }
        if (count === 0) return undefined;
        if (count < 6) micros *= 10 ** (6 - count);
      }
    }
  }
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return undefined;
  const monthDays = mo === 2 && isLeapYear(y) ? 29 : (DAYS_IN_MONTH[mo - 1] as number);
  if (d < 1 || d > monthDays) return undefined;
  const offsetFromUtc = offsetSecondsAt(text, at);
  if (offsetFromUtc === undefined) return undefined;
  const seconds = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offsetFromUtc;
  const total = seconds * 1_000_000 + micros;
  // Exact in a double until the year 2255; beyond, in BigInt arithmetic.
  return Number.isSafeInteger(total) ? BigInt(total) : BigInt(seconds) * 1_000_000n + BigInt(micros);
}

/**
 * The service's spelling of a timestamp in microseconds since 1970: `2024-05-01T13:45:12.123456`,
 * then `+00:00` for an instant. Undefined outside the years 0–9999.
 */
export function formatTimestampMicros(micros: bigint, withOffset: boolean): string | undefined {
  let seconds = micros / 1_000_000n;
  let fraction = micros % 1_000_000n;
  if (fraction < 0n) {
    fraction += 1_000_000n;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return undefined;
  const text = `${date.toISOString().slice(0, 19)}.${String(fraction).padStart(6, '0')}`;
  return withOffset ? `${text}+00:00` : text;
}

/**
 * Whether a timestamp that `parseTimestampMicros` read is already spelled as
 * `formatTimestampMicros` would spell it: a check of its shape, since every digit of that shape
 * was read and range-checked. A mirror stores the spelling of the few others; checking this way
 * rather than formatting each timestamp again spares a first sync a format of every timestamp.
 */
export function isFormattedTimestamp(text: string, withOffset: boolean): boolean {
  return (
    text.length === (withOffset ? 32 : 26) &&
    text[10] === 'T' &&
    text[19] === '.' &&
    digitsAt(text, 20, 6) >= 0 &&
    (!withOffset || text.endsWith('+00:00'))
  );
}

/** Days since 1970-01-01 of a date written `YYYY-MM-DD` (years 0–9999); undefined for any other text or an impossible date. */
export function parseDateDays(text: string): number | undefined {
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 2);
  const d = digitsAt(text, 8, 2);
  if (text.length !== 10 || y < 0 || text[4] !== '-' || text[7] !== '-' || mo < 1 || mo > 12) return undefined;
  const monthDays = mo === 2 && isLeapYear(y) ? 29 : (DAYS_IN_MONTH[mo - 1] as number);
  return d >= 1 && d <= monthDays ? daysFromCivil(y, mo, d) : undefined;
}

const MICROS_PER_SECOND = 1_000_000n;

/**
 * A duration of months, days and microseconds (DuckDB's INTERVAL) in ISO 8601: `P1Y2M3DT4H5M6.5S`,
 * `PT0S` for none. A part below zero carries its own sign (`P1M-1D`, `PT-1H-30M`), as PostgreSQL's
 * iso_8601 interval style writes it, since ISO 8601 has no negative durations.
 */
export function isoDuration({ months, days, micros }: { months: number; days: number; micros: bigint }): string {
  const date = [[Math.trunc(months / 12), 'Y'], [months % 12, 'M'], [days, 'D']]
    .filter(([count]) => count !== 0)
    .map(([count, unit]) => `${count}${unit}`)
    .join('');
  const sign = micros < 0n ? '-' : '';
  const whole = micros < 0n ? -micros : micros;
  const seconds = whole % (60n * MICROS_PER_SECOND);
  const fraction = String(seconds % MICROS_PER_SECOND).padStart(6, '0').replace(/0+$/, '');
  const time = [
    [whole / (3600n * MICROS_PER_SECOND), 'H'],
    [(whole / (60n * MICROS_PER_SECOND)) % 60n, 'M'],
  ]
    .filter(([count]) => count !== 0n)
    .map(([count, unit]) => `${sign}${count}${unit}`)
    .join('') + (seconds === 0n ? '' : `${sign}${seconds / MICROS_PER_SECOND}${fraction === '' ? '' : `.${fraction}`}S`);
  return date === '' && time === '' ? 'PT0S' : `P${date}${time === '' ? '' : `T${time}`}`;
}
