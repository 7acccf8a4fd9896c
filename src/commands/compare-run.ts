import { feeTypesByExchange, feeTypesOf } from '../api/available-filters.js';
import type { ServiceClient } from '../api/client.js';
import { blendedRate, ratesAtVolume } from '../api/tiers.js';
import { UNIT_OF_FEE_TYPE, unitOfFeeTypes, type VenueUnit } from '../api/venue-units.js';
import type { Context } from './context.js';
import { MktError, NotFoundError, NotLicensedError, RequestNotSent, thenSays, UsageError } from '../core/errors.js';
import { groupDigits } from '../core/digits.js';
import { type Column, inOneBatch, type JsonObject, type TableColumn } from '../output/exporter.js';
import { writeDataset } from '../output/write.js';
import { exchangeList, unlessMalformed } from './exchanges-run.js';
import { checkKeptExchanges } from './known-exchanges.js';
import { outputOptions } from './output-options.js';

export interface CompareRequest {
  /** Named on the command line; empty: every exchange `mkt exchanges` knows. */
  exchanges: string[];
  /** --all-exchanges: with none named, every exchange known, however many. */
  allExchanges: boolean;
  volume: number;
  makeShare: number;
  /** --fee-type: only the venues priced in this class's unit. */
  feeType?: string;
}

/** The contract's row: the venue's unit, currency and rank in its group, and `error` for a venue that could not be compared. */
const COMPARE_COLUMNS: readonly Column[] = [
  { name: 'exchange', kind: 'string', nullable: false },
  { name: 'unit', kind: 'string', nullable: true },
  { name: 'currency', kind: 'string', nullable: true },
  { name: 'rank', kind: 'number', nullable: true },
  { name: 'tier', kind: 'string', nullable: true },
  { name: 'maker', kind: 'number', nullable: true },
  { name: 'taker', kind: 'number', nullable: true },
  { name: 'blended', kind: 'number', nullable: true },
  { name: 'effective_date', kind: 'string', nullable: true },
  { name: 'error', kind: 'string', nullable: true },
];

/**
 * What a table shows: the unit and currency are its heading, so not columns; the effective date
 * goes first on a narrow terminal, the error never.
 */
const COMPARE_TABLE_COLUMNS: readonly TableColumn[] = [
  { name: 'rank', header: '#' },
  { name: 'exchange', header: 'Exchange' },
  { name: 'tier', header: 'Tier' },
  { name: 'maker', header: 'Maker' },
  { name: 'taker', header: 'Taker' },
  { name: 'blended', header: 'Blended' },
  { name: 'effective_date', header: 'Effective', priority: 1 },
  { name: 'error', header: 'Error' },
];

/** The most exchanges compared when none is named, without --all-exchanges: each costs a request of a rate-limited key. */
const MAX_UNNAMED_EXCHANGES = 50;

/** Every exchange `mkt exchanges` knows, when they are few enough or --all-exchanges says so. */
async function everyKnownExchange(context: Context, all: boolean): Promise<string[]> {
  const listed = await thenSays(exchangeList(context, false), 'then GET /api/v1/exchanges/{exchange}/fees for each exchange its answer lists');
  const known = listed.list.exchanges.map((exchange) => exchange.id);
  if (known.length > MAX_UNNAMED_EXCHANGES && !all) {
    const count = groupDigits(known.length);
    throw new UsageError(`comparing every exchange \`mkt exchanges\` knows would ask for ${count} fee schedules, a request each`, {
      hint: `Name the exchanges to compare, or add --all-exchanges to compare all ${count}.`,
    });
  }
  return known;
}

/** Schedules fetched at once: a few, as the walk does; the rate gate spaces them further. */
const CONCURRENCY = 4;

/** `fn` over every item, at most `limit` at a time, the results in the items' order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** What a venue's numbers are per, and in, as far as the data tells. */
interface VenueMeasure {
  unit: VenueUnit | null;
  currency: string | null;
}

/**
 * What each venue's schedule is counted in, from the fee types its results carry. The mirror,
 * for a venue whose every record it holds, tells that at no cost, and the currency: the one its
 * amounts name. For the others the service's exchange list tells every venue's fee types in one
 * request; a service without it is asked each venue's available filters (narrowed to the
 * venue), one request each. The service tells no currency. A venue whose fee types neither
 * gives, or the key may not read, is of unknown unit.
 */
async function venueMeasures(context: Context, client: ServiceClient, exchanges: readonly string[], notSent: NotSent): Promise<(exchange: string) => Promise<VenueMeasure>> {
  const { mirroredVenueFacts } = await import('./venue-facts.js');
  const mirrored = await mirroredVenueFacts(context);
  const fromService = exchanges.every((exchange) => mirrored?.has(exchange)) ? undefined : await serviceUnits(client, notSent);
  return async (exchange) => {
    const facts = mirrored?.get(exchange);
    if (facts) return { unit: unitOfFeeTypes(facts.feeTypes), currency: facts.currencies.length === 1 ? (facts.currencies[0] as string) : null };
    return { unit: fromService ? await fromService(exchange) : null, currency: null };
  };
}

/**
 * Under --dry-run, the first request that was not sent. The venues' requests do not depend on one
 * another's answers, so each is printed before that ends the command.
 */
interface NotSent {
  first?: RequestNotSent;
}

/** Each venue's unit from the service: its exchange list, else each venue's available filters; unknown under --dry-run. */
async function serviceUnits(client: ServiceClient, notSent: NotSent): Promise<(exchange: string) => Promise<VenueUnit | null>> {
  let list: unknown;
  try {
    list = await answerOrUndefined(client.fetchExchangeList());
  } catch (error) {
    if (!(error instanceof RequestNotSent)) throw error;
    error.then.push("# the venues' units come from the exchange list's answer (with --fee-type, only the venues of that unit are asked for their fees); a service without the list is asked each venue's filters");
    notSent.first = error;
    return async () => null;
  }
  const listed = feeTypesByExchange(list);
  if (listed !== undefined) return async (exchange) => unitOfFeeTypes(listed.get(exchange) ?? []);
  let answered = true;
  return async (exchange) => {
    if (!answered) return null;
    const body = await answerOrUndefined(client.fetchAvailableFilters([exchange]));
    // A service without the operation: asking again for the next venue would only cost a request.
    if (body === undefined) answered = false;
    return unitOfFeeTypes(feeTypesOf(body) ?? []);
  };
}

/** The body, or undefined for an answer that is not one (not JSON, too large) or that the key may not read. */
async function answerOrUndefined(answer: Promise<unknown>): Promise<unknown> {
  try {
    return await unlessMalformed(answer);
  } catch (error) {
    if (error instanceof NotLicensedError) return undefined;
    throw error;
  }
}

/** Venues of one unit and currency, ranked together; `unit` null: the venues of unknown unit, never ranked. */
interface Group {
  unit: VenueUnit | null;
  currency: string | null;
  rows: JsonObject[];
}

const UNIT_ORDER: readonly (VenueUnit | null)[] = [...new Set(UNIT_OF_FEE_TYPE.values()), null];

/**
 * The rows in their groups: per share, then per contract, each by currency (unknown last), then
 * the venues of unknown unit. In a group the compared venues come by blended rate, lowest first,
 * ranked 1, 2, … (equal rates share a rank), then the venues that could not be compared, in the
 * order they were named.
 */
function groupsOf(rows: readonly JsonObject[]): Group[] {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const unit = row.unit as VenueUnit | null;
    const currency = unit === null ? null : (row.currency as string | null);
    const key = JSON.stringify([unit, currency]);
    const group = groups.get(key) ?? { unit, currency, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  const sorted = [...groups.values()].sort(
    (a, b) => UNIT_ORDER.indexOf(a.unit) - UNIT_ORDER.indexOf(b.unit) || (a.currency ?? '\uffff').localeCompare(b.currency ?? '\uffff'),
  );
  for (const group of sorted) {
    const compared = group.rows.filter((row) => row.error === null).sort((a, b) => (a.blended as number) - (b.blended as number));
    compared.forEach((row, index) => {
      const previous = compared[index - 1];
      row.rank = group.unit === null ? null : previous !== undefined && previous.blended === row.blended ? previous.rank : index + 1;
    });
    group.rows = [...compared, ...group.rows.filter((row) => row.error !== null)];
  }
  return sorted;
}

/** A group's heading at a terminal: `Per share · USD`, `Per contract · currency unknown`, `Unit unknown · not ranked`. */
function headingOf(group: Group): string {
  if (group.unit === null) return 'Unit unknown · not ranked';
  return `${group.unit[0]?.toUpperCase()}${group.unit.slice(1)} · ${group.currency ?? 'currency unknown'}`;
}

/**
 * `mkt compare`: each venue's rates at the volume, ranked by blended rate among the venues of its
 * unit and currency. A venue the key is not licensed for (403) or that the service does not
 * know (404), or whose schedule has no numeric fees, is a row with its error and a warning; any
 * other failure (a rejected key, the network) stops the command. With --fee-type, a venue of
 * another unit, or of unknown unit, is left out before its schedule is asked for. Exit 0 when at
 * least one venue was compared.
 */
export async function runCompare(context: Context, request: CompareRequest): Promise<void> {
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  const known = await checkKeptExchanges(context, request.exchanges);
  const exchanges = request.exchanges.length > 0 ? [...new Set(request.exchanges)] : await everyKnownExchange(context, request.allExchanges);
  const client = await context.client();
  const notSent: NotSent = {};
  const measureOf = await venueMeasures(context, client, exchanges, notSent);
  // A dry run prints every venue's request: the units that would leave some out are not known.
  const wanted = request.feeType === undefined || notSent.first ? undefined : UNIT_OF_FEE_TYPE.get(request.feeType.toLowerCase());

  // A venue's error in its row is short (the row names the venue); its warning has the whole message.
  const failures = new Map<string, MktError>();
  const leftOut: string[] = [];
  // Where the venues are, at a terminal: a rate-limited key may take minutes over forty.
  const progress = exchanges.length > 1 && context.showsProgress ? await context.progress() : undefined;
  let begun = 0;
  const rows = await mapConcurrently(exchanges, CONCURRENCY, async (exchange): Promise<JsonObject | undefined> => {
    progress?.step(`venue ${groupDigits(++begun)} of ${groupDigits(exchanges.length)} · ${exchange}`);
    const { unit, currency } = await measureOf(exchange);
    if (wanted !== undefined && unit !== wanted) {
      leftOut.push(exchange);
      return undefined;
    }
    const row = { exchange, unit, currency, rank: null };
    const failed = (error: MktError, short: string): JsonObject => {
      failures.set(exchange, error);
      return { ...row, error: short };
    };
    let body: unknown;
    try {
      body = await client.fetchExchangeResource(exchange, 'fees');
    } catch (error) {
      if (error instanceof NotLicensedError) return failed(error, 'not licensed (403)');
      if (error instanceof NotFoundError) return failed(known.explain(exchange, error), 'unknown exchange (404)');
      if (!(error instanceof RequestNotSent)) throw error;
      notSent.first ??= error;
      return undefined;
    }
    const schedule = typeof body === 'object' && body !== null ? (body as JsonObject) : {};
    const rates = ratesAtVolume(schedule.fee_schedule, request.volume);
    if (!rates) return failed(new MktError(`the fee schedule of ${exchange} has no numeric maker_fee and taker_fee`), 'no numeric fees');
    const effectiveDate = typeof schedule.effective_date === 'string' ? schedule.effective_date : null;
    const rated = { tier: rates.tier, maker: rates.maker, taker: rates.taker, blended: blendedRate(rates, request.makeShare) };
    return { ...row, ...rated, effective_date: effectiveDate, error: null };
  }).finally(() => progress?.clear());
  if (notSent.first) throw notSent.first;

  // In the order the venues were named, whichever answered first.
  const inOrder = exchanges.flatMap((exchange) => {
    const error = failures.get(exchange);
    return error ? [{ exchange, error }] : [];
  });
  const kept = rows.filter((row): row is JsonObject => row !== undefined);
  const compared = kept.some((row) => row.error === null);
  // With no venue compared, the first failure is the error, and is not a warning as well.
  for (const { exchange, error } of compared ? inOrder : inOrder.slice(1)) {
    const suggestion = known.suggestionFor(exchange);
    context.log.warn(`${exchange}: ${error.message}${error instanceof NotFoundError && suggestion ? `; did you mean ${suggestion}?` : ''}`);
  }
  known.warnOfAnswered();
  if (leftOut.length > 0) {
    // The venues the user named, by name; of every known venue, only how many.
    const named = request.exchanges.length > 0 ? exchanges.filter((exchange) => leftOut.includes(exchange)).join(', ') : undefined;
    if (!compared && !inOrder[0]) {
      throw new MktError(`no venue is known to be priced ${wanted}: --fee-type ${request.feeType} left out ${named ?? `all ${groupDigits(leftOut.length)}`}`, {
        hint: 'Drop --fee-type to see every venue, its unit unknown or not.',
      });
    }
    const venues = leftOut.length === 1 ? 'a venue' : `${groupDigits(leftOut.length)} venues`;
    context.log.info(`--fee-type ${request.feeType} left out ${venues} not known to be priced ${wanted}${named ? `: ${named}` : ''}`);
  }
  if (!compared && inOrder[0]) throw inOrder[0].error;
  const groups = groupsOf(kept);
  const dataset = { shape: 'list', columns: COMPARE_COLUMNS, tableColumns: COMPARE_TABLE_COLUMNS, select: context.globals.columns } as const;
  // A table per group, under its heading, where a reader sees it; any other format has the groups' fields in each row.
  if (output.format === 'table' && output.outputPath === undefined) {
    for (const [index, group] of groups.entries()) {
      output.stdout.write(`${index > 0 ? '\n' : ''}${headingOf(group)}\n`);
      // A group shows no rank column when it is not ranked, and no error column when every venue in it was compared.
      const shown = COMPARE_TABLE_COLUMNS.filter(
        ({ name }) => (name !== 'rank' || group.unit !== null) && (name !== 'error' || group.rows.some((row) => row.error !== null)),
      );
      await writeDataset({ ...dataset, tableColumns: shown, batches: inOneBatch(group.rows) }, output);
    }
    return;
  }
  // A table in a file has no headings: its rows say their unit and currency.
  const tableColumns = [...COMPARE_TABLE_COLUMNS.slice(0, 2), { name: 'unit', header: 'Unit' }, { name: 'currency', header: 'Currency' }, ...COMPARE_TABLE_COLUMNS.slice(2)];
  await writeDataset({ ...dataset, tableColumns, batches: inOneBatch(groups.flatMap((group) => group.rows)) }, output);
}
