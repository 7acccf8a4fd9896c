import { MalformedResponseError } from '../core/errors.js';
import { isJsonObject } from '../core/json-object.js';
import { serverText } from '../http/server-text.js';
import { MAX_ID_LENGTH, RECORD_ID_FIELDS, type ServiceShape, shapeOfRecord } from './record-id.js';
import type { FeeScheduleResultsPage, ResultRecord } from './types.js';

/** The counts that steer a walk, as FeeScheduleResultsPage names them. */
type Count = 'total_records' | 'page_size' | 'total_pages' | 'current_page';

/**
 * Where each envelope keeps its counts, in the words a message uses: the interface document's
 * flat fields, or the 2026 edition's `meta` (shared/service-2026.md), whose `record_count` is
 * the interface's `total_records`.
 */
const COUNT_FIELDS: Record<ServiceShape, Record<Count, string>> = {
  interface: { total_records: 'total_records', page_size: 'page_size', total_pages: 'total_pages', current_page: 'current_page' },
  '2026': { total_records: 'meta.record_count', page_size: 'meta.page_size', total_pages: 'meta.total_pages', current_page: 'meta.current_page' },
};
const COUNTS = Object.keys(COUNT_FIELDS.interface) as Count[];

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
 * rules: counts that are whole numbers, `total_pages` that the record count and `page_size`
 * account for, `current_page` echoing the page asked for, and `data` a page of records with ids.
 * Either envelope is read (shapeOfPage), and both get the same checks; the answer is the
 * normalised page, its records as sent. `page_size` is the size the server says it used, which
 * may differ from the size asked: the document does not show what the service does with a size
 * it will not serve, so a walk pages by the server's size rather than refuse it.
 */
export function checkResultsPage(body: unknown, request: PageRequest): FeeScheduleResultsPage {
  const checked = pageOrProblem(body, request.page, (value) => quote(value, request.key));
  if (typeof checked === 'string') throw malformedAnswer(request.host, checked);
  return checked;
}

/**
 * Which envelope a body uses: the 2026 edition's when it has `meta` and none of the flat counts,
 * else the interface document's (whose messages then name what is missing). A body with both
 * is refused: a server that mixes them cannot be trusted to page by either.
 */
function shapeOfPage(body: Record<string, unknown>): ServiceShape | 'both' {
  if (!('meta' in body)) return 'interface';
  return COUNTS.some((name) => name in body) ? 'both' : '2026';
}

/** The page, normalised, or what is wrong with it, in words. */
function pageOrProblem(body: unknown, page: number, quoted: (value: unknown) => string): FeeScheduleResultsPage | string {
  const isNot = (name: string, value: unknown, what: string) =>
    value === undefined ? `${name} is missing` : `${name} is ${quoted(value)}, not ${what}`;
  if (!isJsonObject(body)) return isNot('the body', body, 'an object');
  const shape = shapeOfPage(body);
  if (shape === 'both') return "the body holds both the interface document's flat total_records… and the 2026 edition's meta";
  const fields = COUNT_FIELDS[shape];
  const meta = shape === '2026' ? body.meta : body;
  if (!isJsonObject(meta)) return isNot('meta', meta, 'an object');
  const counts: Record<string, unknown> = shape === '2026' ? { ...meta, total_records: meta.record_count } : meta;
  for (const name of COUNTS) {
    if (!isCount(counts[name])) return isNot(fields[name], counts[name], 'a whole number from 0 to 2⁵³ − 1');
  }
  const { total_records: records, page_size: size, total_pages: pages, current_page: current } = counts as Record<Count, number>;
  // No records need no pages at any size, 0 included.
  if (size === 0 && records > 0) return `${fields.page_size} is 0, but ${fields.total_records} is ${records}`;
  // Exact: below 2⁵³, a quotient of whole numbers that is not whole never rounds to one.
  const needed = records === 0 ? 0 : Math.ceil(records / size);
  if (pages !== needed) {
    return `${fields.total_pages} is ${pages}, but ${records} ${records === 1 ? 'record' : 'records'} at ${size} a page ${records === 1 ? 'makes' : 'make'} ${needed}`;
  }
  if (current !== page) return `${fields.current_page} is ${current}, but page ${page} was asked for`;

  const { data } = body;
  if (!Array.isArray(data)) return isNot('data', data, 'an array');
  if (data.length > size) return `data holds ${data.length} records, more than ${fields.page_size} ${size}`;
  for (let index = 0; index < data.length; index++) {
    const record: unknown = data[index];
    if (!isJsonObject(record)) return isNot(`data[${index}]`, record, 'an object');
    // Records are told apart by id alone: an empty one would make distinct records one.
    const name = idFieldOf(record, shape);
    const id = record[name];
    if (typeof id !== 'string' || id === '') return isNot(`data[${index}].${name}`, id, 'a non-empty string');
    if (id.length > MAX_ID_LENGTH) return `data[${index}].${name} is ${id.length} characters long, more than ${MAX_ID_LENGTH}`;
  }
  return { shape, data: data as ResultRecord[], total_records: records, page_size: size, total_pages: pages, current_page: current };
}

/**
 * The field that holds a record's id: the one recordIdOf reads (src/api/record-id.ts) when the
 * record carries it as a string, else the envelope's edition's, for the message.
 */
function idFieldOf(record: Record<string, unknown>, shape: ServiceShape): string {
  const name = RECORD_ID_FIELDS[shapeOfRecord(record)];
  return typeof record[name] === 'string' ? name : RECORD_ID_FIELDS[shape];
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
