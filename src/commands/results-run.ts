import { fstatSync } from 'node:fs';
import type { Context } from './context.js';
import type { ResolvedSettings } from '../config/resolve.js';
import type { Format } from '../output/formats.js';
import { AMOUNT_FIELDS, withParsedAmounts } from '../api/amounts.js';
import { ANY_RESULT_FIELDS, resultFieldsOf } from '../api/fields.js';
import { type ResultsSource, type WalkProgress, walkResults } from '../api/walk.js';
import { UsageError } from '../core/errors.js';
import type { MirrorOpening } from './mirror-location.js';
import type { MirrorFilters } from '../mirror/mirror-filters.js';
import type { Column } from '../output/exporter.js';
import { validateColumns } from '../output/columns.js';
import { RESULT_HEADERS, resultsTableColumns } from '../output/views/results.js';
import { type WriteOptions, writeDataset } from '../output/write.js';
import { warnOfUnknownExchanges } from './known-exchanges.js';
import { outputOptions } from './output-options.js';
import type { ResultsQuery } from '../api/filters.js';
import { groupDigits } from '../core/digits.js';

/** What `mkt results` was asked for, its flags checked. */
export interface ResultsRequest {
  query: ResultsQuery;
  all: boolean;
  limit?: number;
  allowDrift: boolean;
  /** `--parse-amounts`: fee_amount_value and fee_amount_unit after fee_amount (src/api/amounts.ts). */
  parseAmounts: boolean;
  /** `--offline`: from the mirror (`--mirror`, or the profile's), not the service. */
  offline?: { mirror?: string };
}

/** A set of results fields, with the two `--parse-amounts` adds after fee_amount. */
export function withAmountFields(fields: readonly Column[]): Column[] {
  return fields.flatMap((field): Column[] => (field.name === 'fee_amount' ? [field, ...AMOUNT_FIELDS] : [field]));
}

/** Every name `--columns` of results may give, of either shape: checked before a request, and against the records' own set once the first has come. */
const ANY_RESULT_COLUMNS: readonly Column[] = withAmountFields(ANY_RESULT_FIELDS);

/** Runs `mkt results` against the service, or with --offline against `mirror`, which the caller has begun opening. */
export async function runResults(context: Context, request: ResultsRequest, mirror: MirrorOpening | undefined): Promise<void> {
  const { deps, globals } = context;
  const settings = await context.settings();
  const output = outputOptions(context, settings.defaultFormat);
  if (globals.columns) validateColumns(globals.columns, ANY_RESULT_COLUMNS);
  await warnOfUnknownExchanges(context, request.query.exchange_name ?? []);
  const client = mirror ? await openOffline(request.query, mirror, output.outputPath, settings, deps.offlineReadRows) : await context.client();
  const walking = request.all || request.limit !== undefined;
  // The walk's pages on the progress line when the data waits for the walk; the client's waits show there in any case.
  const progress = walking && context.showsProgress && dataWaitsForTheWalk(output) ? await context.progress() : undefined;
  const startedAt = deps.now();
  let last: WalkProgress | undefined;
  // Either field named in --columns is enough: the flag only adds them where nothing was chosen.
  const withAmounts = request.parseAmounts || AMOUNT_FIELDS.some((field) => globals.columns?.includes(field.name));
  const walk = walkResults(client, request.query, {
    all: request.all,
    limit: request.limit,
    allowDrift: request.allowDrift,
    warn: (message) => context.log.warn(message),
    onPage: (state) => {
      last = state;
      progress?.update(state);
    },
  });
  try {
    const written = await writeDataset(
      {
        shape: 'list',
        // The spinner goes once the walk is over: before a table reaches the terminal.
        batches: thenRun<readonly object[]>(withAmounts ? withParsedAmounts(walk) : walk, () => progress?.clear()),
        // The set of the records' shape, which the first decides (a walk keeps to one: src/api/walk.ts), else the answer's.
        columns: (first) => {
          const fields = resultFieldsOf(first, last?.shape);
          return withAmounts ? withAmountFields(fields) : fields;
        },
        select: globals.columns,
        tableColumns: resultsTableColumns(withAmounts),
        tableHeaders: RESULT_HEADERS,
      },
      output,
    );
    // Where the user is, said on a terminal only: a script reads the data and the exit code.
    const onTerminal = context.showsProgress;
    if (written.records === 0) {
      progress?.clear();
      if (onTerminal) context.log.info(`${last && isPastTheEnd(last) ? pastTheEnd(last) : 'no results match'}${written.path ? `; ${written.path} holds none` : ''}`);
    } else if (walking) {
      const pages = last?.page ?? 0;
      const seconds = ((deps.now() - startedAt) / 1000).toFixed(1);
      const target = written.path ? ` to ${written.path}` : '';
      progress?.finish(`${groupDigits(written.records)} records from ${pages} ${pages === 1 ? 'page' : 'pages'} in ${seconds} s${target}`);
    } else if (onTerminal && last) {
      context.log.info(whereYouAre(last));
    }
  } catch (error) {
    progress?.clear();
    throw error;
  }
}

/**
 * The mirror, answering as the service would: a query it cannot answer whole, or a mirror of
 * another service, is a usage error. `readRows`: the most rows one read takes (Deps.offlineReadRows).
 */
export async function openOffline(
  query: ResultsQuery,
  { path, opened }: MirrorOpening,
  outputPath: string | undefined,
  settings: ResolvedSettings,
  readRows?: number,
): Promise<ResultsSource> {
  const { checkNotWritingTheMirror, serviceOf } = await import('./mirror-location.js');
  checkNotWritingTheMirror(outputPath, path);
  const [mirror, { checkWithinMirror, mirrorFiltersOf }, { MirrorResults }] = await Promise.all([
    opened,
    import('../mirror/mirror-filters.js'),
    import('../mirror/offline-results.js'),
  ]);
  const identity = mirror.syncedIdentity();
  const service = serviceOf(settings);
  if (identity.service !== service) {
    throw new UsageError(`the mirror cannot answer this: it holds results of ${identity.service}, not ${service}`, {
      hint: `Name the mirror of ${service} with --mirror or MKT_MIRROR, or drop --offline to ask the service.`,
    });
  }
  checkWithinMirror(mirrorFiltersOf(query), JSON.parse(identity.filters) as MirrorFilters, path);
  return new MirrorResults(mirror, readRows);
}

/**
 * After one page: `page 2 of 50 · next: --page-number 2 · --all for every page`. --page-number
 * counts from 0 and people from 1, so the next page is named as the flag takes it.
 */
function whereYouAre(walk: WalkProgress): string {
  const { pages } = walk.service;
  const next = walk.firstPage + 1 < pages ? ` · next: --page-number ${walk.firstPage + 1}` : '';
  const all = pages > 1 ? ' · --all for every page' : '';
  return `page ${groupDigits(walk.firstPage + 1)} of ${groupDigits(pages)}${next}${all}`;
}

/** A --page-number beyond the last page of records that exist. */
const isPastTheEnd = (walk: WalkProgress): boolean => walk.service.records > 0 && walk.firstPage >= walk.service.pages;

/** `page 501 is past the end: the last is --page-number 499`. */
function pastTheEnd(walk: WalkProgress): string {
  return `page ${groupDigits(walk.firstPage + 1)} is past the end: the last is --page-number ${walk.service.pages - 1}`;
}

/** The batches, then `done` once the last is taken. */
async function* thenRun<T>(batches: AsyncIterable<T>, done: () => void): AsyncGenerator<T> {
  yield* batches;
  done();
}

/**
 * Whether the data reaches stdout only once the walk is over, so that progress on stderr cannot
 * land among it: written to a file (`-o`, or stdout redirected to one), or a table, which is
 * drawn when every row is in. Anything else streaming to the terminal would be interleaved with
 * the spinner, and a pipe may well end on the terminal too (`mkt … | head`).
 */
function dataWaitsForTheWalk(output: WriteOptions & { format: Format }): boolean {
  if (output.outputPath !== undefined) return true;
  if (output.stdout.isTTY === true) return output.format === 'table';
  const fd = (output.stdout as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return false;
  try {
    const stats = fstatSync(fd);
    return stats.isFile() || stats.isCharacterDevice(); // `> file`, `> /dev/null`
  } catch {
    return false;
  }
}
