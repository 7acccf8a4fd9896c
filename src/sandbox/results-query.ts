import {
  ENUM_FILTER_NAMES,
  type EnumFilterName,
  ORDER_BY_VALUES,
  ORDER_DIR_VALUES,
  type OrderBy,
  type OrderDir,
  PAGE_SIZE,
} from '../api/filters.js';
import {
  FEE_ACTIONS,
  FEE_CATEGORY_SPELLINGS,
  FEE_PARTICIPANTS,
  FEE_SYMBOL_CLASSIFICATIONS,
  FEE_SYMBOL_TYPES,
  FEE_TRADE_TYPES,
  FEE_TYPE_SPELLINGS,
} from './results-dataset.js';
import { QueryReader, type ValidationIssue } from './validation.js';
import { VENUES } from './venues.js';

/** The record spellings behind each enumerated filter, indexed by the code the dataset stores. */
const SPELLINGS: Record<EnumFilterName, readonly string[]> = {
  fee_type: FEE_TYPE_SPELLINGS,
  fee_category: FEE_CATEGORY_SPELLINGS,
  fee_action: FEE_ACTIONS,
  fee_participant: FEE_PARTICIPANTS,
  fee_symbol_classification: FEE_SYMBOL_CLASSIFICATIONS,
  fee_symbol_type: FEE_SYMBOL_TYPES,
  fee_trade_type: FEE_TRADE_TYPES,
};

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

export type ParsedResultsQuery = { search: ResultsSearch } | { issues: ValidationIssue[] };

function intersect(a: ReadonlySet<number> | undefined, b: ReadonlySet<number> | undefined): ReadonlySet<number> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return new Set([...a].filter((item) => b.has(item)));
}

/** The venues whose `field` is exactly one of `values`; undefined when the parameter is absent. */
function venuesMatching(values: readonly string[], field: 'id' | 'name'): ReadonlySet<number> | undefined {
  if (values.length === 0) return undefined;
  const wanted = new Set(values);
  return new Set(VENUES.flatMap((venue, index) => (wanted.has(venue[field]) ? [index] : [])));
}

function codesMatching(name: EnumFilterName, values: readonly string[]): ReadonlySet<number> | undefined {
  if (values.length === 0) return undefined;
  const wanted = new Set(values.map(normaliseEnumValue));
  return new Set(SPELLINGS[name].flatMap((spelling, code) => (wanted.has(normaliseEnumValue(spelling)) ? [code] : [])));
}

function keyOf(set: ReadonlySet<number> | undefined): string {
  return set === undefined ? '*' : [...set].sort((a, b) => a - b).join(',');
}

/**
 * Validates and reads a results query. Repeated parameters are OR'd; different parameters are
 * AND'ed. `licensed` is the set of venues the key may see (undefined: all of them).
 */
export function parseResultsQuery(params: URLSearchParams, licensed: ReadonlySet<number> | undefined): ParsedResultsQuery {
  const reader = new QueryReader(params);
  const pageSize = reader.integer('page_size', { min: PAGE_SIZE.min, max: PAGE_SIZE.max, default: PAGE_SIZE.default });
  const pageNumber = reader.integer('page_number', { min: 0, default: 0 });
  const orderBy = reader.choice('order_by', ORDER_BY_VALUES, 'created_on');
  const orderDir = reader.choice('order_dir', ORDER_DIR_VALUES, 'desc');
  const latestOnly = reader.boolean('latest_only', false);
  const startDay = reader.date('start_date');
  const endDay = reader.date('end_date');
  if (reader.issues.length > 0) return { issues: reader.issues };

  const venues = intersect(
    licensed,
    intersect(venuesMatching(params.getAll('exchange_name'), 'id'), venuesMatching(params.getAll('supplier_name'), 'name')),
  );
  const enums: Partial<Record<EnumFilterName, ReadonlySet<number>>> = {};
  for (const name of ENUM_FILTER_NAMES) {
    const codes = codesMatching(name, params.getAll(name));
    if (codes !== undefined) enums[name] = codes;
  }
  const filterKey = [
    keyOf(venues),
    ...ENUM_FILTER_NAMES.map((name) => keyOf(enums[name])),
    startDay ?? '',
    endDay ?? '',
    latestOnly,
  ].join('|');
  return {
    search: { venues, enums, startDay, endDay, latestOnly, orderBy, orderDir, pageSize, pageNumber, filterKey },
  };
}
