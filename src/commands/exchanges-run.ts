import { exchangesOf, exchangesOfList, type KnownExchange } from '../api/available-filters.js';
import type { Context } from './context.js';
import { MalformedResponseError, MktError, thenSays } from '../core/errors.js';
import type { Column, TableColumn } from '../output/exporter.js';
import { inOneBatch } from '../output/exporter.js';
import { writeDataset } from '../output/write.js';
import { outputOptions } from './output-options.js';
import { type ExchangeList, readExchangeList, writeExchangeList } from '../config/exchange-cache.js';
import { cacheDirectory } from '../config/paths.js';
import { keepFilterValues } from './service-spelling.js';

/** The table's headers; names and fee types wrap at their spaces rather than lose their ends. */
const TABLE_COLUMNS = {
  exchange: { header: 'Exchange' },
  name: { header: 'Name', fit: 'words' },
  fee_types: { header: 'Fee types', fit: 'words' },
  records: { header: 'Records' },
} as const satisfies Record<string, Omit<TableColumn, 'name'>>;

/** The columns of the list: the name, fee types and count only where the service gave any. */
function columnsOf(exchanges: readonly KnownExchange[]): Column[] {
  const columns: Column[] = [{ name: 'exchange', kind: 'string', nullable: false }];
  if (exchanges.some((exchange) => exchange.name !== null)) columns.push({ name: 'name', kind: 'string', nullable: true });
  if (exchanges.some((exchange) => exchange.feeTypes !== undefined)) columns.push({ name: 'fee_types', kind: 'string', nullable: true });
  if (exchanges.some((exchange) => exchange.records !== null)) columns.push({ name: 'records', kind: 'number', nullable: true });
  return columns;
}

/**
 * The list from the service's exchange list (the 2026 reference), else its "Get Available
 * Filters"; a service with neither is one line, exit 1.
 */
async function fetchExchangeList(context: Context): Promise<ExchangeList> {
  const client = await context.client();
  const list = thenSays(client.fetchExchangeList(), 'a service without this list (401, 403, 404 or 405) is asked GET /api/v1/fee-schedule-results/filters instead');
  let found = exchangesOfList(await unlessMalformed(list));
  if (found === undefined) {
    const body = await unlessMalformed(client.fetchAvailableFilters());
    found = exchangesOf(body);
    // The same answer spells the filters' values: kept beside the list, for results and sync.
    if (body !== undefined) await keepFilterValues(context, body);
  }
  if (found === undefined) {
    throw new MktError(`${client.host} does not list its exchanges (GET /api/v1/exchanges/, nor Get Available Filters, GET /api/v1/fee-schedule-results/filters)`, {
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

/** `mkt exchanges`: the list, and at a terminal whether it is the kept one (a cron job needs no such note). */
export async function runExchanges(context: Context, options: { refresh: boolean }): Promise<void> {
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  const { list, kept } = await exchangeList(context, options.refresh);
  if (kept && context.showsProgress) context.log.info(`The list kept on ${list.fetchedAt.slice(0, 10) || 'an unknown date'}; --refresh asks the service again.`);
  // Fee types are a list in JSON, and one cell of words in a table, CSV or Parquet, as a person or a spreadsheet reads them.
  const asList = output.format === 'json' || output.format === 'ndjson';
  const feeTypesOf = (feeTypes: string[] | undefined) => (feeTypes === undefined ? null : asList ? feeTypes : feeTypes.join(', '));
  const columns = columnsOf(list.exchanges);
  const rows = list.exchanges.map(({ id, name, feeTypes, records }) => {
    const row: Record<string, unknown> = { exchange: id, name, fee_types: feeTypesOf(feeTypes), records };
    return Object.fromEntries(columns.map((column) => [column.name, row[column.name]]));
  });
  const tableColumns = columns.map((column): TableColumn => ({ name: column.name, ...TABLE_COLUMNS[column.name as keyof typeof TABLE_COLUMNS] }));
  await writeDataset({ shape: 'list', batches: inOneBatch(rows), columns, select: context.globals.columns, tableColumns }, output);
}

/** The body, or undefined for an answer that is not one (not JSON, too large). */
export async function unlessMalformed(answer: Promise<unknown>): Promise<unknown> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof MalformedResponseError) return undefined;
    throw error;
  }
}
