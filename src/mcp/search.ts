import { z } from 'zod';
import { ENUM_FILTER_NAMES, ENUM_FILTER_VALUES, ORDER_BY_VALUES, ORDER_DIR_VALUES, PAGE_SIZE } from '../api/filters.js';
import { RECORD_ID_FIELDS } from '../api/record-id.js';
import { INCLUDE_PARAMETERS, type Includes } from '../api/results-query.js';
import type { Context } from '../commands/context.js';
import { collectRecords, encodeCursor, pagingOf, RecordBudget } from './tool-call.js';

const values = (what: string) => z.array(z.string().min(1)).optional().describe(what);

/** The results filters, named as the service's query parameters; enumerated values match case-insensitively, in either edition's spelling. */
const FILTERS = {
  exchange_name: values('exchange identifiers, e.g. ["NYSE", "CBOE"]'),
  supplier_name: values('exchange names, e.g. ["New York Stock Exchange"]'),
  ...Object.fromEntries(ENUM_FILTER_NAMES.map((name) => [name, values(`any of: ${ENUM_FILTER_VALUES[name].join(', ')}`)])),
  start_date: z.string().optional().describe('only results scraped on or after this date, YYYY-MM-DD'),
  end_date: z.string().optional().describe('only results scraped on or before this date, YYYY-MM-DD'),
  latest_only: z.boolean().optional().describe('only the newest version per exchange and fee type'),
  order_by: z.enum(ORDER_BY_VALUES).optional().describe('sort field (default: created_on)'),
  order_dir: z.enum(ORDER_DIR_VALUES).optional().describe('asc or desc (default: desc)'),
};

export const SEARCH_INPUT = {
  ...FILTERS,
  id: z.string().min(1).optional().describe("one record by its id (the results' id, or record_id of the 2026 edition); the filters then do not apply"),
  limit: z.number().int().min(PAGE_SIZE.min).max(PAGE_SIZE.max).optional().describe(`records per answer, ${PAGE_SIZE.min}-${PAGE_SIZE.max} (default: ${PAGE_SIZE.default})`),
  detail: z.enum(['concise', 'full']).optional().describe('concise (default): the fields that say what a fee is; full: every field, with the source document, footnotes and definitions where the service has them'),
  cursor: z.string().optional().describe('next_cursor of the previous answer, to go on with the same search'),
};

export const SEARCH_OUTPUT = {
  records: z.array(z.record(z.string(), z.unknown())).describe('fee schedule results, one fee or rebate line item each'),
  total_records: z.number().describe('every record that matches the search'),
  next_cursor: z.string().optional().describe('pass it as cursor for the records that follow; absent after the last'),
  notes: z.array(z.string()).optional(),
};

const searchArguments = z.object(SEARCH_INPUT);
type SearchArguments = z.infer<typeof searchArguments>;

/** Where a search goes on: its arguments, the page of the service, and the records of that page already answered. */
interface SearchPaging {
  args: Omit<SearchArguments, 'cursor'>;
  page: number;
  skip: number;
}

const searchPaging = z.object({ args: searchArguments.omit({ cursor: true }), page: z.number().int().min(0), skip: z.number().int().min(0) });
const isSearchPaging = (value: unknown): value is SearchPaging => searchPaging.safeParse(value).success;

/** The fields of a concise record, in this order, by either edition's names: what a fee is, for whom, and how much. */
const CONCISE_FIELDS = [
  ...Object.values(RECORD_ID_FIELDS),
  'exchange_name', 'fee_type', 'fee_category', 'fee_charge_type', 'fee_action', 'fee_participant', 'fee_amount',
  'fee_symbol_classification', 'fee_symbol_type', 'fee_trade_type', 'fee_monthly_volume', 'version_id', 'scraped_time',
];

function concise(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(CONCISE_FIELDS.filter((name) => name in record).map((name) => [name, record[name]]));
}

/** Every citation of the 2026 edition, for `detail: full`. */
const EVERY_CITATION: Includes = Object.fromEntries(INCLUDE_PARAMETERS.map((parameter) => [parameter, true]));

/** `search_fee_results`: a page of results, or one record by id, as data, with a cursor to the next. */
export async function searchFeeResults(server: Context, args: SearchArguments, signal: AbortSignal): Promise<Record<string, unknown>> {
  const state = pagingOf(args, isSearchPaging, (given) => ({ args: given as SearchPaging['args'], page: 0, skip: 0 }));
  const search = state.args;
  const full = search.detail === 'full';
  const includes = full ? EVERY_CITATION : {};
  if (search.id !== undefined) return recordById(server, search.id, includes, signal);
  const [{ camel, toResultsRequest }, { inServiceSpelling }] = await Promise.all([import('../commands/results.js'), import('../commands/service-spelling.js')]);
  const limit = search.limit ?? PAGE_SIZE.default;
  // The flags of `mkt results`, checked and spelt as the command checks and spells them.
  const request = toResultsRequest({
    exchangeName: search.exchange_name,
    supplierName: search.supplier_name,
    ...Object.fromEntries(ENUM_FILTER_NAMES.map((name) => [camel(name), search[name as keyof typeof search]])),
    startDate: search.start_date,
    endDate: search.end_date,
    latestOnly: search.latest_only,
    orderBy: search.order_by,
    orderDir: search.order_dir,
    pageSize: String(limit),
    pageNumber: String(state.page),
  });
  const query = await inServiceSpelling(server, { ...request.query, ...includes });
  const page = await (await server.client()).fetchResultsPage(query);
  const budget = new RecordBudget(limit);
  const notes: string[] = [];
  let taken = state.skip;
  for (const record of page.data.slice(state.skip) as unknown as Record<string, unknown>[]) {
    const fits = budget.take(full ? record : concise(record));
    if (fits === 'full') break;
    taken++;
    if (fits === 'oversized') {
      notes.push(`record ${String(record.id ?? record.record_id)} is left out: alone it is larger than an answer may be; detail concise has it, and mkt results get ${String(record.id ?? record.record_id)} -f json whole`);
      break;
    }
  }
  const next: SearchPaging | undefined =
    taken < page.data.length ? { args: search, page: state.page, skip: taken } : state.page + 1 < page.total_pages ? { args: search, page: state.page + 1, skip: 0 } : undefined;
  return {
    records: budget.records,
    total_records: page.total_records,
    ...(next ? { next_cursor: encodeCursor(next) } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** One record by id, as `mkt results get` finds it: the service's endpoint, else the mirror. */
async function recordById(server: Context, id: string, includes: Includes, signal: AbortSignal): Promise<Record<string, unknown>> {
  const [{ runResultGet }, { idArgument }] = await Promise.all([import('../commands/by-id-run.js'), import('../commands/id-argument.js')]);
  const checked = idArgument('id', "a record's id")(id);
  const found = await collectRecords(server, signal, new RecordBudget(1), 0, (call) => runResultGet(call, { id: checked, includes }));
  if (!found.oversized) return { records: found.records, total_records: found.records.length };
  return { records: [], total_records: 1, notes: [`record ${checked} is larger than an answer may be: run mkt results get ${checked} -f json`] };
}
