import { blendedRate, ratesAtVolume } from '../api/tiers.js';
import type { Context } from '../context.js';
import { MktError, NotFoundError, NotLicensedError, UsageError } from '../errors.js';
import { groupDigits } from '../output/digits.js';
import { type Column, inOneBatch, type JsonObject, type TableColumn } from '../output/exporter.js';
import { writeDataset } from '../output/write.js';
import { exchangeList } from './exchanges-run.js';
import { warnOfUnknownExchanges } from './known-exchanges.js';
import { outputOptions } from './output-options.js';

export interface CompareRequest {
  /** Named on the command line; empty: every exchange `mkt exchanges` knows. */
  exchanges: string[];
  /** --all-exchanges: with none named, every exchange known, however many. */
  allExchanges: boolean;
  volume: number;
  makeShare: number;
}

/** The contract's row, and `error` for a venue that could not be compared. */
const COMPARE_COLUMNS: readonly Column[] = [
  { name: 'exchange', kind: 'string', nullable: false },
  { name: 'tier', kind: 'string', nullable: true },
  { name: 'maker', kind: 'number', nullable: true },
  { name: 'taker', kind: 'number', nullable: true },
  { name: 'blended', kind: 'number', nullable: true },
  { name: 'effective_date', kind: 'string', nullable: true },
  { name: 'error', kind: 'string', nullable: true },
];

/** What a table shows: short headers; the effective date goes first on a narrow terminal, the error never. */
const COMPARE_TABLE_COLUMNS: readonly TableColumn[] = [
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
  const known = (await exchangeList(context, false)).list.exchanges.map((exchange) => exchange.id);
  if (known.length > MAX_UNNAMED_EXCHANGES && !all) {
    const count = groupDigits(known.length);
    throw new UsageError(`comparing every exchange \`mkt exchanges\` knows would send ${count} requests, one per exchange`, {
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

/**
 * `mkt compare`: each venue's rates at the volume, ranked by blended rate. A venue the key is
 * not licensed for (403) or that the service does not know (404), or whose schedule has no
 * numeric fees, is a row with its error and a warning; any other failure (a rejected key, the
 * network) stops the command. Exit 0 when at least one venue was compared.
 */
export async function runCompare(context: Context, request: CompareRequest): Promise<void> {
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  await warnOfUnknownExchanges(context, request.exchanges);
  const exchanges = request.exchanges.length > 0 ? [...new Set(request.exchanges)] : await everyKnownExchange(context, request.allExchanges);
  const client = await context.client();

  // A venue's error in its row is short (the row names the venue); its warning has the whole message.
  const failures = new Map<string, MktError>();
  const failed = (exchange: string, error: MktError, short: string): JsonObject => {
    failures.set(exchange, error);
    return { exchange, error: short };
  };
  const rows = await mapConcurrently(exchanges, CONCURRENCY, async (exchange): Promise<JsonObject> => {
    let body: unknown;
    try {
      body = await client.fetchExchangeResource(exchange, 'fees');
    } catch (error) {
      if (error instanceof NotLicensedError) return failed(exchange, error, 'not licensed (403)');
      if (error instanceof NotFoundError) return failed(exchange, error, 'unknown exchange (404)');
      throw error;
    }
    const schedule = typeof body === 'object' && body !== null ? (body as JsonObject) : {};
    const rates = ratesAtVolume(schedule.fee_schedule, request.volume);
    if (!rates) return failed(exchange, new MktError(`the fee schedule of ${exchange} has no numeric maker_fee and taker_fee`), 'no numeric fees');
    const effectiveDate = typeof schedule.effective_date === 'string' ? schedule.effective_date : null;
    return { exchange, tier: rates.tier, maker: rates.maker, taker: rates.taker, blended: blendedRate(rates, request.makeShare), effective_date: effectiveDate };
  });

  // In the order the venues were named, whichever answered first.
  const inOrder = exchanges.flatMap((exchange) => {
    const error = failures.get(exchange);
    return error ? [{ exchange, error }] : [];
  });
  for (const { exchange, error } of inOrder) context.log.warn(`${exchange}: ${error.message}`);
  const compared = rows.filter((row) => row.error === undefined).sort((a, b) => (a.blended as number) - (b.blended as number));
  if (compared.length === 0 && inOrder[0]) throw inOrder[0].error;
  const uncompared = rows.filter((row) => row.error !== undefined);
  await writeDataset({ shape: 'list', batches: inOneBatch([...compared, ...uncompared]), columns: COMPARE_COLUMNS, tableColumns: COMPARE_TABLE_COLUMNS, select: context.globals.columns }, output);
}
