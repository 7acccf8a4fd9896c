import { UsageError } from '../core/errors.js';
import { MAX_ID_LENGTH } from '../api/record-id.js';

/**
 * Whether `text` can be an id the service gave (a record's, a version's: UUIDs): one word of
 * printable ASCII no longer than a page may carry, and not `.` or `..`, which a URL path would
 * take as a step to another endpoint. Anything else is a typo, and nothing is sent.
 */
export function isServiceId(text: string): boolean {
  return new RegExp(`^[\\x21-\\x7e]{1,${MAX_ID_LENGTH}}$`).test(text) && !/^\.{1,2}$/.test(text);
}

/** The parser of an argument or flag that takes such an id. */
export function idArgument(label: string, what: string): (value: string) => string {
  return (value) => {
    const text = value.trim();
    if (!isServiceId(text)) throw new UsageError(`${label} must be ${what}, not ${JSON.stringify(value)}`);
    return text;
  };
}
