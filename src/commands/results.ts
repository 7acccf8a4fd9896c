import { type Command, Option } from 'commander';
import type { ContextFor } from './context.js';
import {
  ENUM_FILTER_NAMES,
  ENUM_FILTER_VALUES,
  flagOf,
  ORDER_BY_VALUES,
  ORDER_DIR_VALUES,
  PAGE_SIZE,
  type OrderBy,
  type OrderDir,
  type ResultsQuery,
} from '../api/filters.js';
import { UsageError } from '../core/errors.js';
import { collectValues, matchAllowed, parseDateRange, parseInteger } from './flag-values.js';
import { idArgument } from './id-argument.js';
import { addExamples } from './examples.js';
import { addIncludeOptions, type IncludeFlags, includesOf } from './include-options.js';
import type { MirrorOpening } from './mirror-location.js';
import type { ResultsRequest } from './results-run.js';

/** The filter flags of `mkt results` and `mkt sync`, as commander parses them. */
export interface FilterFlags {
  exchangeName?: string[];
  exchange?: string[];
  supplierName?: string[];
  feeType?: string[];
  feeCategory?: string[];
  feeAction?: string[];
  feeParticipant?: string[];
  feeSymbolClassification?: string[];
  feeSymbolType?: string[];
  feeTradeType?: string[];
  startDate?: string;
  since?: string;
  endDate?: string;
  until?: string;
  latestOnly?: boolean;
}

/** Flags of `mkt results`, as commander parses them. */
interface ResultsFlags extends FilterFlags, IncludeFlags {
  orderBy?: string;
  orderDir?: string;
  pageSize?: string;
  pageNumber?: string;
  all?: boolean;
  limit?: string;
  allowDrift?: boolean;
  parseAmounts?: boolean;
  offline?: boolean;
  mirror?: string;
}


export const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

function pickAlias(flags: FilterFlags, name: 'startDate' | 'endDate', alias: 'since' | 'until', flag: string): string | undefined {
  if (flags[name] !== undefined && flags[alias] !== undefined) {
    throw new UsageError(`give either ${flag} or --${alias}, not both`);
  }
  return flags[name] ?? flags[alias];
}

/** The filters of the flags, checked but for the enumerated values (inServiceSpelling): a bad value is a UsageError and nothing is sent. */
export function toFilterQuery(flags: FilterFlags): ResultsQuery {
  const query: ResultsQuery = {};
  const exchanges = [...(flags.exchangeName ?? []), ...(flags.exchange ?? [])];
  if (exchanges.length > 0) query.exchange_name = exchanges;
  if (flags.supplierName?.length) query.supplier_name = flags.supplierName;
  for (const name of ENUM_FILTER_NAMES) {
    const values = flags[camel(name) as keyof FilterFlags] as string[] | undefined;
    // Checked and spelt as the service spells them when the command runs (src/commands/service-spelling.ts).
    if (values?.length) query[name] = values;
  }
  const dates = parseDateRange(
    { flag: '--start-date', value: pickAlias(flags, 'startDate', 'since', '--start-date') },
    { flag: '--end-date', value: pickAlias(flags, 'endDate', 'until', '--end-date') },
  );
  if (dates.start) query.start_date = dates.start;
  if (dates.end) query.end_date = dates.end;
  if (flags.latestOnly) query.latest_only = true;
  return query;
}

/** Validates every flag and builds the query; a bad value is a UsageError and nothing is sent. */
export function toResultsRequest(flags: ResultsFlags): ResultsRequest {
  const query = toFilterQuery(flags);
  if (flags.orderBy !== undefined) query.order_by = matchAllowed('--order-by', flags.orderBy, ORDER_BY_VALUES) as OrderBy;
  if (flags.orderDir !== undefined) query.order_dir = matchAllowed('--order-dir', flags.orderDir, ORDER_DIR_VALUES) as OrderDir;
  const limit = flags.limit === undefined ? undefined : parseInteger('--limit', flags.limit, { min: 1 });
  const all = flags.all === true;
  if (flags.pageSize !== undefined) {
    query.page_size = parseInteger('--page-size', flags.pageSize, PAGE_SIZE);
  } else if (all || limit !== undefined) {
    // A walk needs fewer requests at the largest page the service allows.
    query.page_size = Math.min(PAGE_SIZE.max, limit ?? PAGE_SIZE.max);
  }
  if (flags.pageNumber !== undefined) {
    if (all) throw new UsageError('--all walks every page from the first: leave out --page-number');
    query.page_number = parseInteger('--page-number', flags.pageNumber, { min: 0 });
  }
  if (flags.mirror !== undefined && !flags.offline) throw new UsageError('--mirror names the mirror of --offline: add --offline, or leave --mirror out');
  return {
    query: { ...query, ...includesOf(flags) },
    all,
    limit,
    allowDrift: flags.allowDrift === true,
    parseAmounts: flags.parseAmounts === true,
    ...(flags.offline ? { offline: { mirror: flags.mirror } } : {}),
  };
}

/** The filter flags of the results endpoint, under their own heading. */
export function addFilterOptions(command: Command): void {
  command
    .optionsGroup('Filters (each repeatable, or a,b,… for several values):')
    .option('--exchange-name <id>', 'exchange identifier, e.g. NYSE', collectValues('--exchange-name'))
    .addOption(new Option('--exchange <id>', 'alias of --exchange-name').argParser(collectValues('--exchange')).hideHelp())
    .option('--supplier-name <name>', 'exchange name, e.g. "New York Stock Exchange"', collectValues('--supplier-name'));
  for (const name of ENUM_FILTER_NAMES) {
    command.option(`${flagOf(name)} <value>`, `one of: ${ENUM_FILTER_VALUES[name].join(', ')}`, collectValues(flagOf(name)));
  }
  command
    .option('--start-date <YYYY-MM-DD>', 'only results scraped on or after this date')
    .addOption(new Option('--since <YYYY-MM-DD>', 'alias of --start-date').hideHelp())
    .option('--end-date <YYYY-MM-DD>', 'only results scraped on or before this date')
    .addOption(new Option('--until <YYYY-MM-DD>', 'alias of --end-date').hideHelp())
    .option('--latest-only', 'only the newest version per exchange and fee type');
}

export function registerResultsCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('results')
    .summary('Fee schedule results: filtered, sorted, paged')
    .description(
      'List fee schedule results, one fee or rebate line item each: one page by default, every page with --all, '
        + "the first N records with --limit N. A backslash keeps a comma in a value: --supplier-name 'Nasdaq\\, Inc.'.",
    );
  addFilterOptions(command);
  command
    .optionsGroup('Sorting and paging:')
    .option('--order-by <field>', `sort field: ${ORDER_BY_VALUES.join(', ')} (default: created_on)`)
    .option('--order-dir <dir>', 'asc or desc (default: desc)')
    .option('--page-size <n>', `records per page, ${PAGE_SIZE.min}-${PAGE_SIZE.max} (default: ${PAGE_SIZE.default}; ${PAGE_SIZE.max} with --all or --limit)`)
    .option('--page-number <n>', 'page index, from 0 (default: 0)')
    .option('--all', 'walk every page')
    .option('--limit <n>', 'stop after this many records, walking pages as needed, with or without --all')
    .option('--allow-drift', 'accept a walk during which the results changed, with a warning')
    .option('--parse-amounts', 'add fee_amount_value (a number, negative for a rebate) and fee_amount_unit after fee_amount');
  addIncludeOptions(command);
  command
    .optionsGroup('Mirror:')
    .option('--offline', 'answer from the mirror `mkt sync` keeps, with the same filters, order and paging')
    .option('--mirror <path>', 'the mirror of --offline (default: <profile>.duckdb in the OS data directory; MKT_MIRROR)')
    .action(async (flags: ResultsFlags, self: Command) => {
      const request = toResultsRequest(flags);
      const context = contextFor(self);
      const { inServiceSpelling } = await import('./service-spelling.js');
      request.query = await inServiceSpelling(context, request.query, { offline: request.offline !== undefined });
      let mirror: MirrorOpening | undefined;
      if (request.offline) {
        const { beginOpening } = await import('./mirror-location.js');
        mirror = await beginOpening(context, request.offline.mirror);
      }
      const { runResults } = await import('./results-run.js');
      await runResults(context, request, mirror);
    });
  registerResultGetCommand(command, contextFor);
  addExamples(command, [
    { comment: "An analyst: NYSE's option fees, one page at a terminal", command: 'mkt results --exchange-name NYSE --fee-type Option' },
    {
      comment: 'A cron job: every current fee, to a dated Parquet file, whole or not at all',
      command: 'mkt results --all --latest-only --format parquet -o /data/fees-$(date +%F).parquet',
    },
    {
      comment: 'A pipeline: the mean maker rate of market makers in USD, amounts as numbers',
      command: "mkt results --all --parse-amounts --fee-action Make --fee-participant 'Market Maker' -f ndjson | jq -s 'map(select(.fee_amount_unit == \"USD\") | .fee_amount_value) | add / length'",
    },
  ]);
}

/** `mkt results get <id>`: one record by its id, from the 2026 reference's endpoint. */
function registerResultGetCommand(results: Command, contextFor: ContextFor): void {
  const command = results
    .command('get')
    .description(
      "One fee schedule result by its id, with its citations when asked. A service without that endpoint: the mirror's record (mkt sync).",
    )
    .argument('<id>', 'the record\'s id', idArgument('<id>', "a record's id"));
  addIncludeOptions(command);
  command.action(async (id: string, _flags: IncludeFlags, self: Command) => {
    // The flags of `results` that say which records, given with get: refused rather than ignored.
    const own = new Set(command.options.map((option) => option.attributeName()));
    const stray = results.options.find((option) => !own.has(option.attributeName()) && results.getOptionValue(option.attributeName()) !== undefined);
    if (stray) throw new UsageError(`results get reads one record by its id: leave out ${stray.long}`);
    const { runResultGet } = await import('./by-id-run.js');
    // `results` takes the same flags, and commander gives them to it wherever they are on the line.
    await runResultGet(contextFor(self), { id, includes: includesOf(self.optsWithGlobals<IncludeFlags>()) });
  });
  addExamples(command, [
    { comment: 'An analyst: one fee line item, field by field, with its source and footnotes', command: 'mkt results get ae619174-ca79-432a-b437-b653cb6e145b --include-source --include-footnotes' },
    { comment: 'A compliance script: the source link of a record', command: 'mkt results get ae619174-ca79-432a-b437-b653cb6e145b --include-source -f json | jq -r .source_link' },
  ]);
}
