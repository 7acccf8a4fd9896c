import { ENUM_FILTER_NAMES, ENUM_FILTER_VALUES, type EnumFilterName, flagOf, PAGE_SIZE, type ResultsQuery } from '../api/filters.js';
import { enumKey } from '../api/filter-spelling.js';
import { INCLUDE_PARAMETERS } from '../api/results-query.js';
import { UsageError } from '../core/errors.js';

/** The filters of a results query that decide which records match: no order, no paging. */
export type MirrorFilters = Omit<ResultsQuery, 'order_by' | 'order_dir' | 'page_size' | 'page_number'>;

const LIST_FILTERS = ['exchange_name', 'supplier_name', ...ENUM_FILTER_NAMES] as const;
type ListFilter = (typeof LIST_FILTERS)[number];

/** The filters of `query`, each list sorted and without repeats, in one fixed order. */
export function mirrorFiltersOf(query: ResultsQuery): MirrorFilters {
  const filters: MirrorFilters = {};
  for (const name of LIST_FILTERS) {
    const values = query[name];
    if (values?.length) filters[name] = [...new Set(values)].sort();
  }
  if (query.start_date) filters.start_date = query.start_date;
  if (query.end_date) filters.end_date = query.end_date;
  if (query.latest_only) filters.latest_only = true;
  // Not filters, but what each record holds: a mirror synced with citations keeps asking for them.
  for (const name of INCLUDE_PARAMETERS) if (query[name]) filters[name] = true;
  return filters;
}

/** The filters as the mirror records them: JSON whose text is the same for the same filters. */
export function filtersText(filters: MirrorFilters): string {
  return JSON.stringify(filters);
}

/** The filters as the command line would give them: `--exchange-name NYSE --latest-only`, or `no filters`. */
export function describeFilters(filters: MirrorFilters): string {
  const words: string[] = [];
  for (const name of LIST_FILTERS) {
    for (const value of filters[name] ?? []) words.push(`${flagOf(name)} ${/^[\w./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`}`);
  }
  if (filters.start_date) words.push(`--start-date ${filters.start_date}`);
  if (filters.end_date) words.push(`--end-date ${filters.end_date}`);
  if (filters.latest_only) words.push('--latest-only');
  for (const name of INCLUDE_PARAMETERS) if (filters[name]) words.push(flagOf(name));
  return words.length > 0 ? words.join(' ') : 'no filters';
}

/** A value as the filter table spells it (`OPTION` → `Option`), or as it came when the table has no such value. */
export function inFilterSpelling(name: EnumFilterName, value: string): string {
  return ENUM_FILTER_VALUES[name].find((spelling) => enumKey(spelling) === enumKey(value)) ?? value;
}

/** Filters on fields of a version (which exchange, which fee type), rather than of its line items. */
const VERSION_FILTERS: readonly ListFilter[] = ['exchange_name', 'supplier_name', 'fee_type'];

/**
 * Why a mirror synced with `held` cannot answer `asked` exactly, or undefined when it can: every
 * record the query matches must be in the mirror. A filter of the mirror must be in the query,
 * with no value the mirror lacks; dates may only narrow. `--latest-only` needs the whole of each
 * version's line items, to know the newest version the way the service does.
 */
export function outsideOfMirror(asked: MirrorFilters, held: MirrorFilters): string | undefined {
  for (const name of LIST_FILTERS) {
    const mirrored = held[name];
    if (mirrored === undefined) continue;
    const key = (value: string) => (ENUM_FILTER_NAMES.includes(name as EnumFilterName) ? enumKey(value) : value);
    const allowed = new Set(mirrored.map(key));
    const values = asked[name];
    if (values === undefined) return `the mirror holds only ${flagOf(name)} ${mirrored.join(',')}`;
    const missing = values.find((value) => !allowed.has(key(value)));
    if (missing !== undefined) return `the mirror holds no ${flagOf(name)} ${missing}, only ${mirrored.join(',')}`;
  }
  if (held.start_date && !(asked.start_date && asked.start_date >= held.start_date)) {
    return `the mirror holds only results scraped on or after ${held.start_date}`;
  }
  if (held.end_date && !(asked.end_date && asked.end_date <= held.end_date)) {
    return `the mirror holds only results scraped on or before ${held.end_date}`;
  }
  const uncited = INCLUDE_PARAMETERS.find((name) => asked[name] && !held[name]);
  if (uncited) return `the mirror was synced without ${flagOf(uncited)}`;
  if (held.latest_only && !asked.latest_only) return 'the mirror holds only the latest versions: add --latest-only';
  if (asked.latest_only && !held.latest_only) {
    const partial = LIST_FILTERS.some((name) => held[name] !== undefined && !VERSION_FILTERS.includes(name)) || held.start_date || held.end_date;
    if (partial) return 'the mirror holds part of each version, which cannot tell the latest ones: sync a mirror with --latest-only';
  }
  if (asked.supplier_name && asked.supplier_name.join() !== held.supplier_name?.join()) {
    return 'records do not carry supplier names: filter by --exchange-name';
  }
  return undefined;
}

/** A usage error for a query the mirror cannot answer. */
export function checkWithinMirror(asked: MirrorFilters, held: MirrorFilters, path: string): void {
  const reason = outsideOfMirror(asked, held);
  if (reason === undefined) return;
  throw new UsageError(`the mirror cannot answer this: ${reason}`, {
    hint: `${path} was synced with ${describeFilters(held)}; drop --offline to ask the service.`,
  });
}

/** Records a sync asks for per page, its first request included: the largest page the service gives. */
export const SYNC_PAGE_SIZE = PAGE_SIZE.max;

/** The first request of a sync: the newest records, as many as a page holds. */
export function newestPageQuery(filters: MirrorFilters): ResultsQuery {
  return { ...filters, page_size: SYNC_PAGE_SIZE, order_by: 'created_on', order_dir: 'desc', page_number: 0 };
}
