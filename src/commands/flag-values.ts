import { UsageError } from '../core/errors.js';
import { nearestValue } from '../core/nearest.js';
import { enumKey } from '../api/filter-spelling.js';
import { parseVolume } from '../api/tiers.js';

/** Commander collector for a repeatable flag that also takes comma-separated values. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return [...(previous ?? []), ...items];
}

/**
 * Splits a list flag's value at commas. A backslash before a comma keeps the comma in the
 * value, since some values hold one (`--supplier-name 'Nasdaq\, Inc.'`).
 */
export function splitList(value: string): string[] {
  return value.split(/(?<!\\),/).map((item) => item.replaceAll('\\,', ',').trim());
}

/**
 * Commander collector for a repeatable filter flag that also takes comma-separated values.
 * An empty value is refused: dropping it would remove the filter, so a script that passes an
 * unset variable would get everything.
 */
export function collectValues(flag: string): (value: string, previous: string[] | undefined) => string[] {
  return (value, previous) => {
    const items = splitList(value);
    if (items.includes('')) {
      throw new UsageError(
        value.trim() === '' ? `${flag}: the value is empty` : `${flag}: ${JSON.stringify(value)} holds an empty value`,
        { hint: `Leave ${flag} out to match everything; write \\, for a comma inside a value.` },
      );
    }
    return [...(previous ?? []), ...items];
  };
}

/**
 * Commander parser for `-o FILE` (`-`, standard output, is read in src/commands/output-options.ts).
 * An empty name is refused: taken as a path, it is the working directory, and a script passing
 * an unset variable meant a file.
 */
export function parseOutputPath(value: string): string {
  if (value === '') throw new UsageError('-o: the file name is empty', { hint: 'Give a file name, or -o - for standard output.' });
  return value;
}

/** A string with whitespace and control characters written as escapes, so that an error shows them. */
function visible(value: string): string {
  return JSON.stringify(value).replace(/[\p{C}\p{Z}]/gu, (char) =>
    char === ' ' ? char : `\\u${char.codePointAt(0)?.toString(16).padStart(4, '0')}`);
}

/** Why `value` is not a plausible exchange identifier, or undefined when it is one. */
function exchangeIdProblem(value: string): string | undefined {
  if (value === '') return 'is empty';
  // The identifier is one path segment of the request: these would name another resource.
  if (value === '.' || value === '..') return 'is not an exchange identifier';
  if (/[\s\p{C}/]/u.test(value)) return 'holds whitespace, a control character or "/"';
  if (/[^\x21-\x7e]/.test(value)) return 'holds non-ASCII characters';
  return undefined;
}

/**
 * The <exchange> argument, checked before anything is sent. A look-alike pasted from a document
 * (`ＮＹＳＥ`) would otherwise come back as a 404 that reads "unknown exchange".
 */
export function parseExchangeId(value: string): string {
  const problem = exchangeIdProblem(value);
  if (problem === undefined) return value;
  const ascii = value.normalize('NFKC');
  const suggestion = ascii !== value && exchangeIdProblem(ascii) === undefined ? `; did you mean ${ascii}?` : '';
  throw new UsageError(`exchange identifier ${visible(value)} ${problem}${suggestion}`, {
    hint: 'Give the identifier the service uses, e.g. NYSE or CBOE.',
  });
}

/**
 * Matches one value as the service's editions compare them (enumKey: case, `_` for a space, a
 * final plural s) and returns it in the allowed spelling.
 */
export function matchAllowed<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  const key = enumKey(value);
  const match = allowed.find((candidate) => enumKey(candidate) === key);
  if (match !== undefined) return match;
  const suggestion = nearestValue(value, allowed);
  throw new UsageError(
    `${flag}: unknown value ${JSON.stringify(value)}${suggestion ? `; did you mean ${suggestion}?` : ''}`,
    { hint: `Allowed values: ${allowed.join(', ')}.` },
  );
}

/** A real calendar date written YYYY-MM-DD. */
export function parseIsoDate(flag: string, value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!date || date.toISOString().slice(0, 10) !== value) {
    throw new UsageError(`${flag}: ${JSON.stringify(value)} is not a date`, {
      hint: 'Write dates as YYYY-MM-DD, e.g. 2024-01-31.',
    });
  }
  return value;
}

/** Both dates valid, and the period not reversed. */
export function parseDateRange(
  start: { flag: string; value: string | undefined },
  end: { flag: string; value: string | undefined },
): { start?: string; end?: string } {
  const startDate = start.value === undefined ? undefined : parseIsoDate(start.flag, start.value);
  const endDate = end.value === undefined ? undefined : parseIsoDate(end.flag, end.value);
  if (startDate && endDate && startDate > endDate) {
    throw new UsageError(`${start.flag} ${startDate} is after ${end.flag} ${endDate}`);
  }
  return { start: startDate, end: endDate };
}

/** A whole number within bounds, for flags such as --page-size. */
export function parseInteger(flag: string, value: string, bounds: { min: number; max?: number }): number {
  const parsed = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  const inRange = parsed >= bounds.min && (bounds.max === undefined || parsed <= bounds.max);
  if (!Number.isSafeInteger(parsed) || !inRange) {
    const range = bounds.max === undefined ? `a whole number ≥ ${bounds.min}` : `a whole number from ${bounds.min} to ${bounds.max}`;
    throw new UsageError(`${flag}: ${JSON.stringify(value)} is not ${range}`);
  }
  return parsed;
}

/** Commander parser for `--volume` (src/api/tiers.ts). */
export function parseVolumeFlag(value: string): number {
  const volume = parseVolume(value);
  if (volume === undefined) {
    throw new UsageError(`--volume must be a whole monthly volume, not ${JSON.stringify(value)}`, {
      hint: 'Write it as 50000000, 5e7, 50M, 2.5B, 750K or 1,000,000.',
    });
  }
  return volume;
}
