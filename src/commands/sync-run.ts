import type { Context } from '../context.js';
import { EXIT_CODES, UsageError } from '../errors.js';
import type { ResultsQuery } from '../api/filters.js';
import { createProgress } from '../io/progress.js';
import { mirrorOf } from '../mirror/location.js';
import { Mirror } from '../mirror/mirror.js';
import { mirrorFiltersOf } from '../mirror/mirror-filters.js';
import { type SyncSummary, syncMirror } from '../mirror/sync.js';

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
  const mirror = await Mirror.open(path, { write: true });
  context.defer(() => mirror.close());
  const progress = await createProgress({
    stream: deps.stderr,
    enabled: deps.stderr.isTTY === true && globals.quiet !== true,
    color: context.stderrColor,
    now: deps.now,
  });
  const startedAt = deps.now();
  let summary: SyncSummary;
  try {
    summary = await syncMirror(mirror, () => context.client(), {
      filters: mirrorFiltersOf(request.filters),
      service: settings.baseUrlSource === 'sandbox' ? 'sandbox' : (settings.baseUrl ?? '').replace(/\/+$/, ''),
      fullRefresh: request.fullRefresh,
      now: deps.now,
      onPage: (state) => progress.update(state),
    });
  } finally {
    progress.clear();
  }
  const seconds = (deps.now() - startedAt) / 1000;
  context.log.info(summaryLine(summary, seconds));
  if (format === 'json' || format === 'ndjson') {
    const { changed_records: _, ...contracted } = summary;
    deps.stdout.write(`${JSON.stringify(contracted)}\n`);
  }
  const changed = summary.new_records + summary.removed_records + summary.changed_records > 0;
  if (request.exitCode && changed) context.exitCode = EXIT_CODES.changes;
}

const count = (value: number, noun: string): string => `${value.toLocaleString('en-US')} ${noun}${value === 1 ? '' : 's'}`;

/** `synced ~/.local/share/mkt/default.duckdb: 120 new records (NYSE Equity), 0 removed · 3 requests · 0.4 s`. */
export function summaryLine(summary: SyncSummary, seconds: number): string {
  const changes: string[] = [];
  if (summary.new_records > 0) {
    const groups = [...new Set(summary.new_versions.map((version) => `${version.exchange_name} ${version.fee_type}`))];
    const named = groups.length <= 3 ? groups.join(', ') : `${groups.length} fee schedules`;
    changes.push(`${count(summary.new_records, 'new record')} (${named})`);
  }
  if (summary.removed_records > 0) changes.push(`${count(summary.removed_records, 'record')} removed`);
  if (summary.changed_records > 0) changes.push(`${count(summary.changed_records, 'record')} changed`);
  const what = changes.length > 0 ? changes.join(', ') : 'nothing new';
  const walk = summary.full_walk ? ' · full walk' : '';
  return `synced ${summary.mirror}: ${what} · ${count(summary.total_records, 'record')} in all · ${count(summary.requests, 'request')}${walk} · ${seconds.toFixed(1)} s`;
}
