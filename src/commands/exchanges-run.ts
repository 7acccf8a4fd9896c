import { exchangesOf, type KnownExchange } from '../api/available-filters.js';
import type { Context } from './context.js';
import { MalformedResponseError, MktError } from '../core/errors.js';
import type { Column } from '../output/exporter.js';
import { inOneBatch } from '../output/exporter.js';
import { writeDataset } from '../output/write.js';
import { outputOptions } from './output-options.js';
import { type ExchangeList, readExchangeList, writeExchangeList } from '../config/exchange-cache.js';
import { cacheDirectory } from '../config/paths.js';
import { keepFilterValues } from './service-spelling.js';

/** The columns of the list: the name and the count only where the service gave any. */
function columnsOf(exchanges: readonly KnownExchange[]): Column[] {
  const columns: Column[] = [{ name: 'exchange', kind: 'string', nullable: false }];
  if (exchanges.some((exchange) => exchange.name !== null)) columns.push({ name: 'name', kind: 'string', nullable: true });
  if (exchanges.some((exchange) => exchange.records !== null)) columns.push({ name: 'records', kind: 'number', nullable: true });
  return columns;
}

/** The list from the service's "Get Available Filters"; a service without it is one line, exit 1. */
async function fetchExchangeList(context: Context): Promise<ExchangeList> {
  const client = await context.client();
  let found: ReturnType<typeof exchangesOf>;
  try {
    const body = await client.fetchAvailableFilters();
    found = exchangesOf(body);
    // The same answer spells the filters' values: kept beside the list, for results and sync.
    await keepFilterValues(context, body);
  } catch (error) {
    if (!(error instanceof MalformedResponseError)) throw error;
  }
  if (found === undefined) {
    throw new MktError(`${client.host} does not list its exchanges (Get Available Filters, GET /api/v1/fee-schedule-results/filters)`, {
      hint: "The exchanges of your results: mkt results --all --columns exchange_name -f ndjson | jq -r .exchange_name | sort -u",
    });
  }
  if (found.dropped > 0) context.log.warn(`left out ${found.dropped} exchange ${found.dropped === 1 ? 'identifier' : 'identifiers'} that are not plain letters, digits, ".", "_" or "-"`);
  return { source: 'service', fetchedAt: new Date(context.deps.now()).toISOString(), exchanges: found.exchanges };
}

/** Keeps the list for completion and did-you-mean; a cache that cannot be written costs a warning, never the command. */
function keep(context: Context, cacheDir: string, profile: string, list: ExchangeList): void {
  try {
    writeExchangeList(cacheDir, profile, list);
  } catch (error) {
    context.log.warn(`the list is not kept: cannot write in ${cacheDir} (${(error as NodeJS.ErrnoException).code ?? 'error'}); set MKT_CACHE_DIR to a directory you can write to`);
  }
}

/**
 * The exchanges of the profile: the kept list, else (or with `refresh`) the service's, which is
 * then kept. The sandbox's list is never kept: it is not the user's service.
 */
export async function exchangeList(context: Context, refresh: boolean): Promise<{ list: ExchangeList; kept: boolean }> {
  const settings = await context.settings();
  const fromSandbox = settings.keySource === 'sandbox';
  const cacheDir = cacheDirectory(context.deps.env);
  const kept = refresh || fromSandbox ? undefined : readExchangeList(cacheDir, settings.profile);
  if (kept) return { list: kept, kept: true };
  const list = await fetchExchangeList(context);
  if (!fromSandbox) keep(context, cacheDir, settings.profile, list);
  return { list, kept: false };
}

/** `mkt exchanges`: the list, and on stderr whether it is the kept one. */
export async function runExchanges(context: Context, options: { refresh: boolean }): Promise<void> {
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  const { list, kept } = await exchangeList(context, options.refresh);
  if (kept) context.log.info(`The list kept on ${list.fetchedAt.slice(0, 10) || 'an unknown date'}; --refresh asks the service again.`);
  const rows = list.exchanges.map(({ id, name, records }) => ({ exchange: id, name, records }));
  const columns = columnsOf(list.exchanges);
  await writeDataset({ shape: 'list', batches: inOneBatch(rows), columns, select: context.globals.columns ?? columns.map((column) => column.name) }, output);
}
