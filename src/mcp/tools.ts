import { z } from 'zod';
import { allowedFilterValues, filterValuesOf } from '../api/available-filters.js';
import { ENUM_FILTER_NAMES, ENUM_FILTER_VALUES, FIXED_VALUE_PARAMETERS } from '../api/filters.js';
import type { Context } from '../commands/context.js';
import { matchAllowed, parseExchangeId, parseVolumeFlag } from '../commands/flag-values.js';
import { MalformedResponseError } from '../core/errors.js';
import { SEARCH_INPUT, SEARCH_OUTPUT, searchFeeResults } from './search.js';
import { collectRecords, encodeCursor, type Paging, pagingOf, RecordBudget } from './tool-call.js';

/** One tool of `mkt mcp`: what an agent reads of it, and what it does. */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  output: z.ZodRawShape;
  run(server: Context, args: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
}

const exchangeInput = z.string().min(1).describe('exchange identifier, e.g. NYSE; list_exchanges lists them');
const volumeInput = z.union([z.number().int().min(0), z.string()]).describe('monthly volume: 50000000, or 5e7, 50M, 2.5B, 750K');
const cursorInput = z.string().optional().describe('next_cursor of the previous answer, to go on');
const nextCursor = z.string().optional().describe('pass it as cursor for what follows; absent after the last');
const notesOutput = z.array(z.string()).optional().describe('what the answer leaves out, and why');
const row = z.record(z.string(), z.unknown());
const serviceBody = z.unknown().describe("the service's answer, as it sent it");

/** A volume as `--volume` takes it. */
const volumeOf = (volume: number | string): number => parseVolumeFlag(String(volume));

const listPaging = z.object({ args: z.record(z.string(), z.unknown()), skip: z.number().int().min(0) });
const isListPaging = (value: unknown): value is Paging => listPaging.safeParse(value).success;

/**
 * The rows a command writes, as a tool's answer under `key`: as many as fit, from the cursor's
 * row on, with a cursor to the rest. A cursor carries the arguments it was given with, which
 * it then stands for.
 */
async function rowsOf(
  server: Context,
  key: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  run: (call: Context, args: Record<string, unknown>) => Promise<void>,
): Promise<Record<string, unknown>> {
  const state = pagingOf(args, isListPaging, (given) => ({ args: given, skip: 0 }));
  const found = await collectRecords(server, signal, new RecordBudget(Number.POSITIVE_INFINITY), state.skip, (call) => run(call, state.args));
  const notes = found.oversized ? [`row ${state.skip + 1} is left out: alone it is larger than an answer may be`] : [];
  return {
    [key]: found.records,
    ...(found.cut ? { next_cursor: encodeCursor({ args: state.args, skip: found.next }) } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** The one object a command writes for a tool (an exchange's answer): its NDJSON's first line, or every line of a list. */
async function bodyOf(server: Context, signal: AbortSignal, run: (call: Context) => Promise<void>): Promise<unknown> {
  const found = await collectRecords(server, signal, new RecordBudget(Number.POSITIVE_INFINITY), 0, run);
  if (found.cut) throw new MalformedResponseError('the service sent more than a tool result may hold');
  return found.records.length === 1 ? found.records[0] : found.records;
}

/** The rows `mkt sql` answers that one tool result holds. */
const MAX_SQL_ROWS = 1000;

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'list_exchanges',
    title: 'List exchanges',
    description:
      'Lists the trading venues the service covers, with their names, the fee types (Equity, Option) their results hold and how many '
        + 'records each has where the service says. Use it first to find the exchange identifiers the other tools take.',
    input: { cursor: cursorInput },
    output: {
      exchanges: z.array(z.object({ exchange: z.string(), name: z.string().nullable(), fee_types: z.array(z.string()).nullable(), records: z.number().nullable() })),
      next_cursor: nextCursor,
      notes: notesOutput,
    },
    async run(server, args) {
      const { exchangeList } = await import('../commands/exchanges-run.js');
      const { list } = await exchangeList(server, false);
      const rows = list.exchanges.map(({ id, name, feeTypes, records }) => ({ exchange: id, name, fee_types: feeTypes ?? null, records }));
      const { skip } = pagingOf(args, isListPaging, () => ({ args: {}, skip: 0 }));
      const budget = new RecordBudget(Number.POSITIVE_INFINITY);
      let next = skip;
      for (const exchange of rows.slice(skip)) {
        if (budget.take(exchange) !== 'taken') break;
        next++;
      }
      return { exchanges: budget.records, ...(next < rows.length ? { next_cursor: encodeCursor({ args: {}, skip: next }) } : {}) };
    },
  },
  {
    name: 'get_filter_values',
    title: 'Get filter values',
    description:
      'Lists the values each results filter takes (fee_type, fee_category, fee_action, fee_participant, fee_symbol_classification, '
        + "fee_symbol_type, fee_trade_type) in the service's own spelling, and the sort fields. With exchange_name, the values of those "
        + "exchanges' records alone. search_fee_results takes these values, in any case.",
    input: { exchange_name: z.array(z.string().min(1)).optional().describe('only the values of these exchanges\' records') },
    output: {
      filters: z.array(z.object({ parameter: z.string(), values: z.array(z.string()) })),
      source: z.enum(['service', 'reference']).describe("service: the service's own list; reference: the interface document's table, which the service did not replace"),
    },
    async run(server, args) {
      const exchanges = (args.exchange_name as string[] | undefined)?.map(parseExchangeId);
      const { unlessMalformed } = await import('../commands/exchanges-run.js');
      const learned = filterValuesOf(await unlessMalformed((await server.client()).fetchAvailableFilters(exchanges)));
      const allowed = allowedFilterValues(learned);
      const filters = FIXED_VALUE_PARAMETERS.map(({ name, values }) => ({ parameter: name, values: [...(ENUM_FILTER_NAMES.includes(name as never) ? allowed[name as keyof typeof allowed] : values)] }));
      return { filters, source: learned === undefined ? 'reference' : 'service' };
    },
  },
  {
    name: 'search_fee_results',
    title: 'Search fee schedule results',
    description:
      'Searches the fee schedule results, one fee or rebate line item each, by exchange, fee type, category, action, participant, '
        + 'symbol class and type, trade type and scrape date, newest first by default. Answers `limit` records (20 by default, 100 at '
        + 'most) and a next_cursor to page on; detail full adds every field and, from a service of the 2026 edition, the source '
        + 'document, footnotes and definitions. With id, the one record of that id.',
    input: SEARCH_INPUT,
    output: SEARCH_OUTPUT,
    run: (server, args, signal) => searchFeeResults(server, args, signal),
  },
  {
    name: 'get_fee_schedule',
    title: 'Get an exchange\'s fee schedule',
    description:
      "Gets an exchange's current fee schedule: its maker and taker fees and its volume tiers, with its effective date. With volume, "
        + 'also at_volume: the tier and the maker and taker rates that apply at that monthly volume, for the whole volume. '
        + 'Negative rates are rebates. The schedule does not say its unit (per share or per contract) or currency: '
        + 'compare_venues tells the unit from the venue\'s results where they are of one class.',
    input: { exchange: exchangeInput, volume: volumeInput.optional() },
    output: { schedule: serviceBody },
    async run(server, args, signal) {
      const exchange = parseExchangeId(args.exchange as string);
      const volume = args.volume === undefined ? undefined : volumeOf(args.volume as number | string);
      const { runExchangeCommand } = await import('../commands/exchange-run.js');
      return { schedule: await bodyOf(server, signal, (call) => runExchangeCommand(call, { exchange, resource: 'fees', volume })) };
    },
  },
  {
    name: 'get_rules_and_order_types',
    title: 'Get an exchange\'s rules and order types',
    description:
      "Gets an exchange's trading rules (trading hours, tick size, lot size, circuit breakers) and the order types it supports, "
        + 'each with a description, as the service answers them.',
    input: { exchange: exchangeInput },
    output: { rules: serviceBody, order_types: serviceBody },
    async run(server, args, signal) {
      const exchange = parseExchangeId(args.exchange as string);
      const { runExchangeCommand } = await import('../commands/exchange-run.js');
      const rules = await bodyOf(server, signal, (call) => runExchangeCommand(call, { exchange, resource: 'rules' }));
      const orderTypes = await bodyOf(server, signal, (call) => runExchangeCommand(call, { exchange, resource: 'orderTypes' }));
      return { rules, order_types: orderTypes };
    },
  },
  {
    name: 'compare_venues',
    title: 'Compare venues at a volume',
    description:
      'Ranks venues by blended rate at a monthly volume, lowest first: make_share times the maker rate plus the rest times the taker '
        + 'rate, in the tier that volume reaches. Venues are ranked only among those of the same unit (per share, per contract) '
        + 'and currency; a venue that could not be priced has its error. With no exchange named, every exchange the service '
        + 'lists (at most 50); fee_type keeps the venues priced in that class\'s unit.',
    input: {
      exchanges: z.array(z.string().min(1)).optional().describe('exchange identifiers, e.g. ["NYSE", "CBOE", "IEX"]'),
      volume: volumeInput.optional().describe('monthly volume that picks each venue\'s tier (default: 0): 50000000, or 5e7, 50M, 2.5B, 750K'),
      make_share: z.number().min(0).max(1).optional().describe('part of the volume that adds liquidity, 0 to 1 (default: 0.5)'),
      fee_type: z.enum(ENUM_FILTER_VALUES.fee_type).optional(),
      cursor: cursorInput,
    },
    output: { venues: z.array(row).describe('exchange, unit, currency, rank, tier, maker, taker, blended, effective_date, error'), next_cursor: nextCursor, notes: notesOutput },
    async run(server, args, signal) {
      const { runCompare } = await import('../commands/compare-run.js');
      return rowsOf(server, 'venues', args, signal, (call, given) => {
        const exchanges = [...new Set(((given.exchanges as string[] | undefined) ?? []).map(parseExchangeId))];
        const volume = given.volume === undefined ? 0 : volumeOf(given.volume as number | string);
        return runCompare(call, { exchanges, allExchanges: false, volume, makeShare: (given.make_share as number | undefined) ?? 0.5, feeType: given.fee_type as string | undefined });
      });
    },
  },
  {
    name: 'diff_versions',
    title: 'What changed between fee schedule versions',
    description:
      "Lists what changed between two versions of an exchange's fee schedule for one fee type: line items added, removed and "
        + 'changed (each changed field, before and after, with how much an amount moved). By default the newest version against '
        + 'the one before it; from and to pick versions by version_id, or by date for the newest scraped on or before it.',
    input: {
      exchange: exchangeInput,
      fee_type: z.string().describe(`${ENUM_FILTER_VALUES.fee_type.join(' or ')}`),
      from: z.string().optional().describe('the older version: a version_id, or a date YYYY-MM-DD'),
      to: z.string().optional().describe('the newer version (default: the newest): a version_id, or a date YYYY-MM-DD'),
      cursor: cursorInput,
    },
    output: { differences: z.array(row).describe('change (added, removed, changed), before, after, fields, amount_change'), next_cursor: nextCursor, notes: notesOutput },
    async run(server, args, signal) {
      const [{ runDiff }, { versionChoice }] = await Promise.all([import('../commands/diff-run.js'), import('../commands/diff.js')]);
      return rowsOf(server, 'differences', args, signal, (call, given) =>
        runDiff(call, {
          exchange: parseExchangeId(given.exchange as string),
          feeType: matchAllowed('fee_type', given.fee_type as string, ENUM_FILTER_VALUES.fee_type),
          from: given.from === undefined ? undefined : versionChoice('from')(given.from as string),
          to: given.to === undefined ? undefined : versionChoice('to')(given.to as string),
          exitCode: false,
          parseAmounts: true,
        }));
    },
  },
  {
    name: 'query_mirror',
    title: 'Query the mirror with SQL',
    description:
      'Runs read-only DuckDB SQL over the mirror that `mkt sync` keeps of the fee schedule results: tables results, '
        + 'results_with_values (amounts as numbers: fee_amount_value, fee_amount_unit) and mkt_*. Answers at most 1,000 rows and '
        + '45,000 characters, with a note when the answer is cut: aggregate or add LIMIT and OFFSET for the rest.',
    input: { sql: z.string().min(1).describe('e.g. SELECT exchange_name, count(*) AS items FROM results GROUP BY ALL ORDER BY ALL') },
    output: { rows: z.array(row), row_count: z.number().describe('rows in this answer'), notes: notesOutput },
    async run(server, args, signal) {
      const { runSql } = await import('../commands/sql-run.js');
      const found = await collectRecords(server, signal, new RecordBudget(MAX_SQL_ROWS), 0, (call) => runSql(call, { query: args.sql as string }));
      const notes = found.cut
        ? [`the answer is cut after ${found.records.length} rows: a result holds at most ${MAX_SQL_ROWS} rows and 45,000 characters; aggregate, or page with LIMIT and OFFSET`]
        : [];
      return { rows: found.records, row_count: found.records.length, ...(notes.length > 0 ? { notes } : {}) };
    },
  },
];
