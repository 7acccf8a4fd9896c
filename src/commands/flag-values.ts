import { UsageError } from '../errors.js';

/** Commander collector for a repeatable flag that also takes comma-separated values. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return [...(previous ?? []), ...items];
}

/** Levenshtein distance, case-insensitive. */
function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previousRow = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const row = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = (previousRow[j - 1] as number) + (left[i - 1] === right[j - 1] ? 0 : 1);
      row.push(Math.min((previousRow[j] as number) + 1, (row[j - 1] as number) + 1, substitution));
    }
    previousRow = row;
  }
  return previousRow[right.length] as number;
}

/** The allowed value closest to `value`, if it is close enough to be a typo. */
export function nearestValue(value: string, allowed: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(value, candidate);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const tolerance = Math.max(2, Math.floor(best.candidate.length / 3));
  return best.distance <= tolerance ? best.candidate : undefined;
}

/** Matches one value case-insensitively and returns it in the allowed spelling. */
export function matchAllowed(flag: string, value: string, allowed: readonly string[]): string {
  const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
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
