import type { ResultsQuery } from '../api/filters.js';
import type { FeeScheduleResultsPage } from '../api/types.js';
import { cacheDirectory } from '../config/paths.js';
import type { Context } from './context.js';
import { EXIT_CODES, InterruptedError, thenSays, UsageError } from '../core/errors.js';
import { serverText } from '../http/server-text.js';
import { mirrorOf, serviceOf } from './mirror-location.js';
import { filtersText, mirrorFiltersOf, newestPageQuery } from '../mirror/mirror-filters.js';
import type { SyncedVersion, SyncSummary } from '../mirror/sync.js';
import { holdsNothingNew, readSyncState, writeSyncState } from '../mirror/sync-state.js';
import { groupDigits } from '../core/digits.js';

export interface SyncCommandRequest {
  filters: ResultsQuery;
  mirror?: string;
  fullRefresh: boolean;
  exitCode: boolean;
}

export async function runSync(context: Context, request: SyncCommandRequest): Promise<void> {
  const { deps, globals } = context;
  const format = globals.format;
  // The summary is the data: one JSON object, or nothing on stdout.
  if (format !== undefined && format !== 'json' && format !== 'ndjson' && format !== 'table') {
    throw new UsageError(`mkt sync writes its summary as json, not ${format}`, { hint: 'Use --format json, or leave --format out for the line on stderr.' });
  }
  const settings = await context.settings();
  const path = await mirrorOf(context, request.mirror);
  const filters = mirrorFiltersOf(request.filters);
  const service = serviceOf(settings);
  const cacheDir = cacheDirectory(deps.env);
  const startedAt = deps.now();

  // Nothing new, told from one request and the state the last sync left, without loading DuckDB.
  const state = request.fullRefresh ? undefined : readSyncState(cacheDir, path);
  let newestPage: FeeScheduleResultsPage | undefined;
  // A dry run's first request is this one too, printed before the mirror is opened, which it leaves as it is.
  if (globals.dryRun || (state && state.service === service && state.filters === filtersText(filters))) {
    newestPage = await thenSays(
      (await context.client()).fetchResultsPage(newestPageQuery(filters)),
      "then, as its answer and the mirror say, the pages the mirror lacks: the same request with page_number=1, 2, …, or every page of the filters' results",
    );
    if (state && holdsNothingNew(state, newestPage)) {
      report(context, request, settings.apiKey, {
        mirror: path,
        new_records: 0,
        changed_records: 0,
        removed_records: 0,
        new_versions: [],
        removed_versions: [],
        changed_groups: [],
        requests: 1,
        total_records: newestPage.total_records,
        full_walk: false,
      }, startedAt);
      return;
    }
  }

  // The client checks the base URL, the profile and the key, and sends nothing: a sync that could
  // send no request makes no mirror, nor its directory.
  await context.client();
  // Only a sync that has something to do loads the mirror's modules, and DuckDB.
  const [{ Mirror, KEPT_BY_THE_MIRROR }, { syncMirror }, progress] = await Promise.all([
    import('../mirror/mirror.js'),
    import('../mirror/sync.js'),
    context.progress(),
  ]);
  const mirror = await Mirror.open(path, { write: true, signal: context.signal });
  context.defer(() => mirror.close());
  let summary: SyncSummary;
  try {
    summary = await syncMirror(mirror, () => context.client(), {
      filters,
      service,
      fullRefresh: request.fullRefresh,
      now: deps.now,
      commitEveryPages: deps.syncCommitPages,
      ...(newestPage ? { newestPage } : {}),
      onPage: (progressState) => progress.update(progressState),
    });
  } catch (error) {
    // A first sync that fails before it holds a record leaves no mirror to answer for it.
    const discarded = await mirror.discardIfUnsynced().catch(() => false);
    // Said to whoever stops a long first sync: nothing committed is lost.
    if (error instanceof InterruptedError) {
      throw new InterruptedError(error.signal, { hint: discarded ? `Nothing was committed, and ${path} was removed.` : KEPT_BY_THE_MIRROR });
    }
    throw error;
  } finally {
    progress.clear();
  }
  const newestRecords = await mirror.newestRecordTexts(newestPageQuery(filters).page_size as number);
  await mirror.close();
  writeSyncState(cacheDir, path, { service, filters: filtersText(filters), totalRecords: summary.total_records, newestRecords });
  report(context, request, settings.apiKey, summary, startedAt);
}

/** The summary line on stderr, the JSON on stdout when asked, and exit 10 for changes with --exit-code. */
function report(context: Context, request: SyncCommandRequest, key: string | undefined, summary: SyncSummary, startedAt: number): void {
  const { deps, globals } = context;
  context.log.info(summaryLine(summary, (deps.now() - startedAt) / 1000, key));
  const suggestion = diffSuggestion(summary);
  if (suggestion) context.log.info(suggestion);
  if (globals.format === 'json' || globals.format === 'ndjson') deps.stdout.write(`${JSON.stringify(summary)}\n`);
  const changed = summary.new_records + summary.removed_records + summary.changed_records > 0;
  if (request.exitCode && changed) context.exitCode = EXIT_CODES.changes;
}

const count = (value: number, noun: string): string => `${groupDigits(value)} ${noun}${value === 1 ? '' : 's'}`;

/**
 * `synced ~/.local/share/mkt/default.duckdb: 120 new records (NYSE Equity), 5 records removed (CBOE Option) · 3 requests · 0.4 s`.
 * The names are the server's, cleaned of `key` and control characters.
 */
export function summaryLine(summary: SyncSummary, seconds: number, key: string | undefined): string {
  const changes: string[] = [];
  if (summary.new_records > 0) changes.push(`${count(summary.new_records, 'new record')}${schedulesOf(summary.new_versions, key)}`);
  if (summary.removed_records > 0) changes.push(`${count(summary.removed_records, 'record')} removed${schedulesOf(summary.removed_versions, key)}`);
  if (summary.changed_records > 0) changes.push(`${count(summary.changed_records, 'record')} changed`);
  const what = changes.length > 0 ? changes.join(', ') : 'nothing new';
  const walk = summary.full_walk ? ' · full walk' : '';
  return `synced ${summary.mirror}: ${what} · ${count(summary.total_records, 'record')} in all · ${count(summary.requests, 'request')}${walk} · ${seconds.toFixed(1)} s`;
}

/**
 * The fee schedules of some versions, counted by version: ` (NYSE Equity, CBOE Option)` when
 * there are three versions or fewer, each of its own fee schedule, and ` (12 fee schedules)` otherwise.
 */
function schedulesOf(versions: readonly SyncedVersion[], key: string | undefined): string {
  if (versions.length === 0) return '';
  const groups = new Set(versions.map((version) => serverText(`${version.exchange_name} ${version.fee_type}`, key)));
  return ` (${versions.length <= 3 && groups.size === versions.length ? [...groups].join(', ') : count(versions.length, 'fee schedule')})`;
}

/**
 * After a sync that brought new versions of fee schedules the mirror already had (not the
 * first): the command that says what changed, `Run \`mkt diff NYSE Equity\` to see what changed.`
 */
export function diffSuggestion(summary: SyncSummary): string | undefined {
  if (summary.new_versions.length === 0 || summary.new_records >= summary.total_records) return undefined;
  // Names the service sent: suggested only when they are plain words, safe to paste into a shell.
  const plain = (text: string | null) => text !== null && /^[A-Za-z0-9_.-]{1,64}$/.test(text);
  const groups = [...new Set(summary.new_versions
    .filter((version) => plain(version.exchange_name) && plain(version.fee_type))
    .map((version) => `${version.exchange_name} ${version.fee_type}`))];
  if (groups.length === 0) return undefined;
  const more = groups.length > 1 ? ` (and ${count(groups.length - 1, 'more fee schedule')})` : '';
  return `Run \`mkt diff ${groups[0]}\` to see what changed${more}.`;
}
