import {
  ENUM_FILTER_NAMES,
  type EnumFilterName,
  ORDER_BY_VALUES,
  ORDER_DIR_VALUES,
  type OrderBy,
  type OrderDir,
  PAGE_SIZE,
} from '../api/filters.js';
import { QueryReader, type ValidationIssue } from './validation.js';
import { VENUES } from './venues.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * How enumerated values compare: case-insensitively, and with the plural that records carry
 * (Fees And Rebates) equal to the filter's spelling (Fee And Rebates).
 */
function normaliseEnumValue(value: string): string {
  const lower = value.toLowerCase();
  return lower === 'fees and rebates' ? 'fee and rebates' : lower;
}

/** A validated query of the results endpoint. Sets are of codes; undefined means "no filter". */
export interface ResultsSearch {
  /** Venue indexes allowed by the key's licence and the exchange_name/supplier_name filters. */
  venues: ReadonlySet<number> | undefined;
  enums: Partial<Record<EnumFilterName, ReadonlySet<number>>>;
  /** Inclusive, in days since the epoch, against the UTC date of scraped_time. */
  startDay: number | undefined;
  endDay: number | undefined;
  latestOnly: boolean;
  orderBy: OrderBy;
  orderDir: OrderDir;
  pageSize: number;
  pageNumber: number;
  /** Identifies which records match (not their order or the page), for caching. */
  filterKey: string;
}

/** The 2026 edition's include flags: which generated citations a record carries. */
export interface Includes {
  source: boolean;
  footnotes: boolean;
  definitions: boolean;
}

export type ParsedResultsQuery = { search: ResultsSearch; includes: Includes } | { issues: ValidationIssue[] };

/** The 2026 edition's order_by: the interface's, less supplier_name. */
const ORDER_BY_2026 = ORDER_BY_VALUES.filter((value) => value !== 'supplier_name');
const BOOLEAN_WORDS = ['true', 'false'] as const;

/** include_source, include_footnotes and include_definitions: exactly true or false (2026 shape only). */
export function readIncludes(reader: QueryReader): Includes {
  const flag = (name: string) => reader.choice(name, BOOLEAN_WORDS, 'false') === 'true';
  return { source: flag('include_source'), footnotes: flag('include_footnotes'), definitions: flag('include_definitions') };
}

export const NO_INCLUDES: Includes = { source: false, footnotes: false, definitions: false };

/** page_size (1 to 100, default 20) and page_number (from 0), as both shapes page. */
export function readPage(reader: QueryReader): { pageSize: number; pageNumber: number } {
  return {
    pageSize: reader.integer('page_size', { min: PAGE_SIZE.min, max: PAGE_SIZE.max, default: PAGE_SIZE.default }),
    pageNumber: reader.integer('page_number', { min: 0, default: 0 }),
  };
}

function intersect(a: ReadonlySet<number> | undefined, b: ReadonlySet<number> | undefined): ReadonlySet<number> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return new Set([...a].filter((item) => b.has(item)));
}

/** The venues whose identifier or name is exactly one of `values`; undefined when the parameter is absent. */
function venuesMatching(values: readonly string[], names: readonly string[]): ReadonlySet<number> | undefined {
  if (values.length === 0) return undefined;
  const wanted = new Set(values);
  return new Set(names.flatMap((name, index) => (wanted.has(name) ? [index] : [])));
}

const VENUE_NAMES = VENUES.map((venue) => venue.name);

/**
 * The codes an enumerated filter's values stand for. The interface shape compares loosely and
 * lets an unknown value match nothing; the 2026 shape takes only its snake_case values, exactly,
 * as an enum parameter is validated, and names any other in a 422.
 */
function codesMatching(reader: QueryReader, vocabulary: Vocabulary, name: EnumFilterName): ReadonlySet<number> | undefined {
  const spellings = vocabulary.enums[name];
  const strict = vocabulary.shape === '2026';
  const values = strict ? reader.choices(name, [...new Set(spellings)]) : reader.params.getAll(name);
  if (values.length === 0) return undefined;
  const normalise = strict ? (value: string) => value : normaliseEnumValue;
  const wanted = new Set(values.map(normalise));
  return new Set(spellings.flatMap((spelling, code) => (wanted.has(normalise(spelling)) ? [code] : [])));
}

function keyOf(set: ReadonlySet<number> | undefined): string {
  return set === undefined ? '*' : [...set].sort((a, b) => a - b).join(',');
}

/**
 * Validates and reads a results query in a shape's vocabulary. Repeated parameters are OR'd;
 * different parameters are AND'ed. `licensed` is the set of venues the key may see (undefined:
 * all of them).
 */
export function parseResultsQuery(
  params: URLSearchParams,
  licensed: ReadonlySet<number> | undefined,
  vocabulary: Vocabulary,
): ParsedResultsQuery {
  const reader = new QueryReader(params);
  const { pageSize, pageNumber } = readPage(reader);
  const orderBy = reader.choice('order_by', vocabulary.shape === '2026' ? ORDER_BY_2026 : ORDER_BY_VALUES, 'created_on');
  const orderDir = reader.choice('order_dir', ORDER_DIR_VALUES, 'desc');
  const latestOnly = reader.boolean('latest_only', false);
  const startDay = reader.date('start_date');
  const endDay = reader.date('end_date');
  const includes = vocabulary.shape === '2026' ? readIncludes(reader) : NO_INCLUDES;
  const enums: Partial<Record<EnumFilterName, ReadonlySet<number>>> = {};
  for (const name of ENUM_FILTER_NAMES) {
    const codes = codesMatching(reader, vocabulary, name);
    if (codes !== undefined) enums[name] = codes;
  }
  if (reader.issues.length > 0) return { issues: reader.issues };

  const venues = intersect(
    licensed,
    intersect(
      venuesMatching(params.getAll('exchange_name'), vocabulary.exchangeIds),
      venuesMatching(params.getAll('supplier_name'), VENUE_NAMES),
    ),
  );
  const filterKey = [
    keyOf(venues),
    ...ENUM_FILTER_NAMES.map((name) => keyOf(enums[name])),
    startDay ?? '',
    endDay ?? '',
    latestOnly,
  ].join('|');
  return {
    search: { venues, enums, startDay, endDay, latestOnly, orderBy, orderDir, pageSize, pageNumber, filterKey },
    includes,
  };
}
