import { MalformedResponseError } from '../core/errors.js';
import { serverText } from '../http/server-text.js';
import { MAX_ID_LENGTH, RECORD_ID_FIELDS, shapeOfRecord } from './record-id.js';
import type { FeeScheduleResultsPage } from './types.js';

/** The envelope's counts: the numbers that steer a walk. */
const COUNTS = ['total_records', 'page_size', 'total_pages', 'current_page'] as const;

/** Longest piece of a malformed answer quoted in a message: enough to recognise it, still one short line. */
const MAX_QUOTED = 40;


/** What a results page is checked against: the request it answers. */
export interface PageRequest {
  /** The service's host, for the message. */
  host: string;
  /** The API key, never to be quoted back. */
  key: string;
  /** The page_number asked for (the service's default, 0, when none was sent). */
  page: number;
}

/** The one-line error for an answer mkt cannot trust: `HOST sent a malformed answer: WHAT`. */
export function malformedAnswer(host: string, what: string): MalformedResponseError {
  return new MalformedResponseError(`${host} sent a malformed answer: ${what}`);
}

/** Longest id a message quotes: escaped, it is still whole, so a key in it is whole for the logger to take out. */
const MAX_QUOTED_ID = 128;

/** A record as a message names it where the key is not at hand: `record ID`, or by its id's length when too long to quote whole. */
export function recordNamed(id: string): string {
  return id.length <= MAX_QUOTED_ID ? `record ${serverText(id, undefined)}` : `a record whose id is ${id.length} characters long`;
}

/**
 * A results page, checked before a walk trusts it, against the service document's pagination
 * rules: counts that are whole numbers, `total_pages` that `total_records` and `page_size`
 * account for, `current_page` echoing the page asked for, and `data` a page of records with ids.
 * `page_size` is the size the server says it used, which may differ from the size asked: the
 * document does not show what the service does with a size it will not serve, so a walk pages
 * by the server's size rather than refuse it.
 */
export function checkResultsPage(body: unknown, request: PageRequest): FeeScheduleResultsPage {
  const page = flatEnvelope(body);
  const problem = problemOf(page, request.page, (value) => quote(value, request.key));
  if (problem !== undefined) throw malformedAnswer(request.host, problem);
  return page as FeeScheduleResultsPage;
}

/** The 2026 envelope, `{data, meta: {record_count, …}}`, with its counts where the first shape has them; any other body as it is. */
function flatEnvelope(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body.meta) || 'total_records' in body) return body;
  const { record_count, page_size, total_pages, current_page } = body.meta;
  return { data: body.data, total_records: record_count, page_size, total_pages, current_page };
}

/** What is wrong with the page, in words, or undefined when nothing is. */
function problemOf(body: unknown, page: number, quoted: (value: unknown) => string): string | undefined {
  const isNot = (name: string, value: unknown, what: string) =>
    value === undefined ? `${name} is missing` : `${name} is ${quoted(value)}, not ${what}`;
  if (!isRecord(body)) return isNot('the body', body, 'an object');
  for (const name of COUNTS) {
    if (!isCount(body[name])) return isNot(name, body[name], 'a whole number from 0 to 2⁵³ − 1');
  }
  const { total_records: records, page_size: size, total_pages: pages, current_page: current } = body as Record<(typeof COUNTS)[number], number>;
  // No records need no pages at any size, 0 included.
  if (size === 0 && records > 0) return `page_size is 0, but total_records is ${records}`;
  // Exact: below 2⁵³, a quotient of whole numbers that is not whole never rounds to one.
  const needed = records === 0 ? 0 : Math.ceil(records / size);
  if (pages !== needed) {
    return `total_pages is ${pages}, but ${records} ${records === 1 ? 'record' : 'records'} at ${size} a page ${records === 1 ? 'makes' : 'make'} ${needed}`;
  }
  if (current !== page) return `current_page is ${current}, but page ${page} was asked for`;

  const { data } = body;
  if (!Array.isArray(data)) return isNot('data', data, 'an array');
  if (data.length > size) return `data holds ${data.length} records, more than page_size ${size}`;
  for (let index = 0; index < data.length; index++) {
    const record: unknown = data[index];
    if (!isRecord(record)) return isNot(`data[${index}]`, record, 'an object');
    // Records are told apart by id alone: an empty one would make distinct records one.
    const idField = RECORD_ID_FIELDS[shapeOfRecord(record)];
    const id = record[idField];
    if (typeof id !== 'string' || id === '') return isNot(`data[${index}].${idField}`, id, 'a non-empty string');
    if (id.length > MAX_ID_LENGTH) return `data[${index}].${idField} is ${id.length} characters long, more than ${MAX_ID_LENGTH}`;
  }
  return undefined;
}

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A count a walk can do arithmetic with: 1.5, -1, "3" and 1e300 are not. */
function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** A value from the answer as its JSON, cleaned by serverText and cut short. */
function quote(value: unknown, key: string): string {
  const text = serverText(JSON.stringify(value), key);
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}
