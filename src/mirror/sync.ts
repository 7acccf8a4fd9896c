import { FEE_SCHEDULE_RESULT_FIELDS } from '../api/fields.js';
import type { ResultsQuery } from '../api/filters.js';
import { IdSet } from '../api/id-set.js';
import type { FeeScheduleResultsPage } from '../api/types.js';
import type { ResultsSource } from '../api/walk.js';
import { MktError, UsageError } from '../errors.js';
import type { ProgressState } from '../io/progress.js';
import type { Mirror, MirrorIdentity } from './mirror.js';
import { describeFilters, filtersText, type MirrorFilters, newestPageQuery, SYNC_PAGE_SIZE } from './mirror-filters.js';
import { type StoredRecord, toStoredRecord } from './rows.js';
import { CREATE_SCHEMA, MIRROR_LAYOUT, RESULT_COLUMNS } from './schema.js';

export interface SyncRequest {
  filters: MirrorFilters;
  /** The base URL, or `sandbox`. */
  service: string;
  /** Walk everything and rebuild the mirror, even for other filters or another service. */
  fullRefresh: boolean;
  now: () => number;
  /** The first page of newest records, when the caller has already asked for it (newestPageQuery). */
  newestPage?: FeeScheduleResultsPage;
  /** After each page: pages and records read so far, and the pages a full walk reads. */
  onPage?: (progress: ProgressState) => void;
}

/** A version the sync brought records of. */
export interface NewVersion {
  exchange_name: string;
  fee_type: string;
  version_id: string;
  records: number;
}

/** What a sync did, as `mkt sync --format json` writes it (shared/cli-contract.md). */
export interface SyncSummary {
  mirror: string;
  new_records: number;
  removed_records: number;
  /** Records whose id was there before with other values: found by full walks only. */
  changed_records: number;
  new_versions: NewVersion[];
  requests: number;
  total_records: number;
  full_walk: boolean;
}

/** Pages of a full walk in flight at once, as src/api/walk.ts. */
const PAGES_AHEAD = 4;
/**
 * A full walk commits what it has at least this often, so that a killed sync carries on from there.
 * A commit of 100 pages costs DuckDB ~100 ms (its time grows with the rows, not the commits) and
 * runs while the walk reads on: 20-page commits awaited in turn made a 300,000-record first sync
 * 12.4 s, against 5.0 s for the NDJSON export of the same walk (docs/performance.md).
 */
const COMMIT_EVERY_PAGES = 100;
const COMMIT_EVERY_MS = 2000;

const fieldIndex = (name: string) => FEE_SCHEDULE_RESULT_FIELDS.findIndex((field) => field.name === name);
const [ID, EXCHANGE_NAME, FEE_TYPE, VERSION_ID, CREATED_ON] = ['id', 'exchange_name', 'fee_type', 'version_id', 'created_on'].map(fieldIndex) as [number, number, number, number, number];

/**
 * Brings a mirror up to date with the service's answer for its filters (docs/mirror.md).
 *
 * Records are read newest first (created_on, descending) until the mirror's newest is reached;
 * if the mirror's count plus the new records then equals the service's total_records, those
 * records are all that changed. Otherwise, and at the first sync or with --full-refresh, every
 * page is walked, oldest first, into a staging table committed every few pages with the page to
 * go on from, and the staged records then replace the mirror's in one transaction.
 */
export async function syncMirror(mirror: Mirror, connect: () => Promise<ResultsSource>, request: SyncRequest): Promise<SyncSummary> {
  const identity: MirrorIdentity = { service: request.service, filters: filtersText(request.filters) };
  const recorded = mirror.identity;
  if (recorded && !request.fullRefresh && !sameIdentity(recorded, identity)) {
    throw new UsageError(differenceOf(recorded, identity, request.filters), {
      hint: `A mirror answers one set of filters from one service: name another with --mirror, or rebuild this one with --full-refresh.`,
    });
  }
  const source = await connect();
  const startedAt = request.now();
  // A page the caller asked for was a request of this sync too.
  let requests = request.newestPage ? 1 : 0;
  const fetchPage = (query: ResultsQuery): Promise<FeeScheduleResultsPage> => {
    requests++;
    return source.fetchResultsPage(query);
  };
  const query: ResultsQuery = { ...request.filters, page_size: SYNC_PAGE_SIZE };

  const pending = await mirror.pendingWalk();
  let outcome: Outcome | undefined;
  if (recorded && !request.fullRefresh && !pending) {
    outcome = await readNewest(mirror, source.host, fetchPage, request);
  }
  const fullWalk = outcome === undefined;
  outcome ??= await walkEverything(mirror, source.host, query, fetchPage, identity, pending, request);
  const summary: SyncSummary = {
    mirror: mirror.path,
    new_records: outcome.newRecords,
    removed_records: outcome.removedRecords,
    changed_records: outcome.changedRecords,
    new_versions: outcome.newVersions,
    requests,
    total_records: outcome.totalRecords,
    full_walk: fullWalk,
  };
  await mirror.transaction(async () => {
    if (fullWalk) await replaceResults(mirror, identity, outcome.totalRecords);
    else await appendResults(mirror, outcome.records ?? [], outcome.totalRecords);
    await mirror.run('INSERT INTO mkt_syncs VALUES (to_timestamp($1 / 1000), now(), $2, $3, $4, $5, $6, $7)', [
      startedAt,
      summary.new_records,
      summary.removed_records,
      summary.changed_records,
      summary.requests,
      summary.total_records,
      summary.full_walk,
    ]);
  });
  return summary;
}

/** What a sync found, before it is committed. */
interface Outcome {
  /** New records to append (when not a full walk), oldest first. */
  records?: StoredRecord[];
  newRecords: number;
  removedRecords: number;
  changedRecords: number;
  newVersions: NewVersion[];
  totalRecords: number;
}

/**
 * The records newer than the mirror's newest, or undefined when they do not account for the
 * service's total (something was withdrawn, or added among older records): then only a full walk
 * can tell. A page of records all known while the counts agree ends the reading early, so a sync
 * that finds nothing costs one request.
 */
async function readNewest(
  mirror: Mirror,
  host: string,
  fetchPage: (query: ResultsQuery) => Promise<FeeScheduleResultsPage>,
  request: SyncRequest,
): Promise<Outcome | undefined> {
  const known = await mirror.ids('results');
  const count = known.size;
  const newest = await mirror.newestCreatedOn();
  const records: StoredRecord[] = [];
  let total = 0;
  let read = 0;
  for (let pageNumber = 0; ; pageNumber++) {
    const page = pageNumber === 0 && request.newestPage ? request.newestPage : await fetchPage({ ...newestPageQuery(request.filters), page_number: pageNumber });
    read += page.data.length;
    request.onPage?.({ page: pageNumber + 1, records: read });
    total = page.total_records;
    let reachedOlder = false;
    let unknown = 0;
    for (const record of page.data) {
      const stored = toStoredRecord(record, host);
      if (newest !== undefined && (stored.values[CREATED_ON] as bigint) < newest) reachedOlder = true;
      if (!known.add(record.id)) continue;
      records.push(stored);
      unknown++;
    }
    const accountedFor = count + records.length === total;
    if (pageNumber >= page.total_pages - 1 || reachedOlder || (unknown === 0 && accountedFor)) break;
  }
  // In a mirror of the latest versions, a new version's records push out its predecessor's.
  if (count + records.length !== total || (request.filters.latest_only && records.length > 0)) return undefined;
  records.sort(oldestFirst);
  return { records, newRecords: records.length, removedRecords: 0, changedRecords: 0, newVersions: versionsOf(records), totalRecords: total };
}

/**
 * By created_on, then id: the order `results` is stored in (schema.ts). Where JavaScript's code
 * units and DuckDB's UTF-8 bytes order two ids otherwise, appendResults finds it.
 */
function oldestFirst(a: StoredRecord, b: StoredRecord): number {
  return ascending(a.values[CREATED_ON] as bigint, b.values[CREATED_ON] as bigint) || ascending(a.values[ID] as string, b.values[ID] as string);
}

/** Two values in ascending order, texts by their code units. */
function ascending<T extends string | bigint>(x: T, y: T): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The versions of new records, by exchange, fee type and version. */
function versionsOf(records: readonly StoredRecord[]): NewVersion[] {
  const versions = new Map<string, NewVersion>();
  for (const { values } of records) {
    const [exchange_name, fee_type, version_id] = [values[EXCHANGE_NAME], values[FEE_TYPE], values[VERSION_ID]] as [string, string, string];
    const key = JSON.stringify([exchange_name, fee_type, version_id]);
    const version = versions.get(key) ?? { exchange_name, fee_type, version_id, records: 0 };
    version.records++;
    versions.set(key, version);
  }
  return [...versions.values()].sort(compareVersions);
}

/** By exchange, fee type and version_id, as the code units compare: SQL's ORDER BY of the full walk's. */
function compareVersions(a: NewVersion, b: NewVersion): number {
  return ascending(a.exchange_name, b.exchange_name) || ascending(a.fee_type, b.fee_type) || ascending(a.version_id, b.version_id);
}

/**
 * Every page, oldest first, into mkt_walk_results, carrying on from a walk a previous sync left
 * unfinished. Oldest first, so that records added during the walk land on its last pages rather
 * than shift the ones still to come. The staged records must add up to the service's total.
 */
async function walkEverything(
  mirror: Mirror,
  host: string,
  query: ResultsQuery,
  fetchPage: (query: ResultsQuery) => Promise<FeeScheduleResultsPage>,
  identity: MirrorIdentity,
  pending: Awaited<ReturnType<Mirror['pendingWalk']>>,
  request: SyncRequest,
): Promise<Outcome> {
  let firstPage = 0;
  let staged: IdSet;
  if (pending && sameIdentity(pending, identity) && pending.pageSize === SYNC_PAGE_SIZE) {
    firstPage = pending.nextPage;
    staged = await mirror.ids('mkt_walk_results');
  } else {
    await mirror.transaction(async () => {
      await discardWalk(mirror);
      await mirror.run('INSERT INTO mkt_walk VALUES ($1, $2, $3, 0, now())', [identity.service, identity.filters, SYNC_PAGE_SIZE]);
    });
    staged = new IdSet();
  }
  const pageQuery = (pageNumber: number): ResultsQuery => ({ ...query, order_by: 'created_on', order_dir: 'asc', page_number: pageNumber });

  const first = await fetchPage(pageQuery(firstPage));
  let lastPage = Math.max(firstPage, first.total_pages - 1);
  let total = first.total_records;
  const inFlight = new Map<number, Promise<FeeScheduleResultsPage>>([[firstPage, Promise.resolve(first)]]);
  let nextToRequest = firstPage + 1;
  let buffered: StoredRecord[] = [];
  let pagesBuffered = 0;
  /** The page after the last whose records are all in `buffered` or committed. */
  let walkedTo = firstPage;
  let lastCommit = request.now();
  /** The commit under way, while the walk reads on. At most one: the next awaits it, and fails with it. */
  let committing: Promise<void> = Promise.resolve();
  const commit = async (nextPage: number): Promise<void> => {
    await committing;
    const records = buffered;
    buffered = [];
    pagesBuffered = 0;
    lastCommit = request.now();
    committing = mirror.transaction(async () => {
      await mirror.append('mkt_walk_results', records);
      await mirror.run('UPDATE mkt_walk SET next_page = $1', [nextPage]);
    });
    committing.catch(() => {}); // awaited by the next commit
  };
  try {
    for (let pageNumber = firstPage; pageNumber <= lastPage; pageNumber++) {
      while (nextToRequest <= lastPage && inFlight.size < PAGES_AHEAD) {
        const answer = fetchPage(pageQuery(nextToRequest));
        answer.catch(() => {}); // awaited in order below
        inFlight.set(nextToRequest++, answer);
      }
      const page = await (inFlight.get(pageNumber) as Promise<FeeScheduleResultsPage>);
      inFlight.delete(pageNumber);
      total = page.total_records;
      // Records added during the walk make more pages: they are walked too.
      lastPage = Math.max(lastPage, page.total_pages - 1);
      const records = page.data.map((record) => toStoredRecord(record, host));
      for (const record of records) if (staged.add(record.values[0] as string)) buffered.push(record);
      request.onPage?.({ page: pageNumber + 1, totalPages: lastPage + 1, records: staged.size });
      pagesBuffered++;
      walkedTo = pageNumber + 1;
      if (pagesBuffered >= COMMIT_EVERY_PAGES || request.now() - lastCommit >= COMMIT_EVERY_MS) await commit(walkedTo);
    }
  } catch (error) {
    // What arrived before a failure or Ctrl-C is kept: the next sync carries on from it.
    if (pagesBuffered > 0) await commit(walkedTo).catch(() => {});
    await committing.catch(() => {});
    throw error;
  }
  await commit(lastPage + 1);
  await committing;
  if (staged.size !== total) {
    await mirror.transaction(() => discardWalk(mirror));
    throw new MktError(`the results changed during the sync: ${staged.size} records read, but the service now reports ${total}`, {
      hint: 'Run `mkt sync` again: the mirror is as it was before this sync.',
    });
  }
  return countChanges(mirror, total);
}

/** Forgets an unfinished walk: its staging tables are made anew, empty. Within a transaction. */
async function discardWalk(mirror: Mirror): Promise<void> {
  await mirror.run('DELETE FROM mkt_walk');
  await mirror.run('DROP TABLE mkt_walk_results');
  await mirror.run('DROP TABLE mkt_walk_timestamp_text');
  await mirror.run(CREATE_SCHEMA);
}

/** What replacing the mirror's results with the staged ones changes. */
async function countChanges(mirror: Mirror, total: number): Promise<Outcome> {
  const versions = await mirror.rows(
    `SELECT w.exchange_name, w.fee_type, w.version_id, count(*)::INTEGER AS records
     FROM mkt_walk_results w ANTI JOIN results r ON r.id = w.id
     GROUP BY ALL ORDER BY ALL`,
  );
  const newVersions = versions.map((row) => ({
    exchange_name: row.exchange_name as string,
    fee_type: row.fee_type as string,
    version_id: row.version_id as string,
    records: row.records as number,
  }));
  const [removed] = await mirror.rows('SELECT count(*)::INTEGER AS n FROM results r ANTI JOIN mkt_walk_results w ON r.id = w.id');
  const [changed] = await mirror.rows(
    `SELECT count(*)::INTEGER AS n FROM (
       SELECT ${RESULT_COLUMNS} FROM mkt_walk_results w SEMI JOIN results r ON r.id = w.id
       EXCEPT SELECT ${RESULT_COLUMNS} FROM results)`,
  );
  return {
    newRecords: newVersions.reduce((sum, version) => sum + version.records, 0),
    removedRecords: removed?.n as number,
    changedRecords: changed?.n as number,
    newVersions,
    totalRecords: total,
  };
}

/**
 * New records, oldest first, join the mirror's. They stay stored in order (schema.ts) when the
 * mirror's were and theirs follow on: a record older than the mirror's newest (which the counts
 * allow when another was withdrawn) or ids that DuckDB orders otherwise than JavaScript do not.
 * Within a transaction.
 */
async function appendResults(mirror: Mirror, records: readonly StoredRecord[], total: number): Promise<void> {
  // Nothing appended leaves the order, and the note of it, as they were.
  if (records.length === 0) return;
  const before = total - records.length;
  await mirror.append('results', records);
  const inOrder = mirror.resultsInOrder === before && (await mirror.storedInOrderFrom(Math.max(before - 1, 0)));
  await mirror.run('UPDATE mkt_mirror SET results_in_order = $1', [inOrder ? total : null]);
}

/**
 * The staged records become the mirror's, stored in order (schema.ts): a walk stages them oldest
 * first, and they are sorted only when the service ordered its pages otherwise. Those that left
 * are noted in mkt_removed_results. Within a transaction.
 */
async function replaceResults(mirror: Mirror, identity: MirrorIdentity, total: number): Promise<void> {
  await mirror.run(`INSERT INTO mkt_removed_results SELECT r.*, now() FROM results r ANTI JOIN mkt_walk_results w ON r.id = w.id`);
  // The staging tables become the mirror's, renamed rather than copied: copying 300,000 records
  // took 1 s and wrote them to the file twice (docs/performance.md). CREATE_SCHEMA then makes
  // empty staging tables again, and the view over the new results.
  await mirror.run('DROP TABLE results');
  await mirror.run('ALTER TABLE mkt_walk_results RENAME TO results');
  await mirror.run('DROP TABLE mkt_timestamp_text');
  await mirror.run('ALTER TABLE mkt_walk_timestamp_text RENAME TO mkt_timestamp_text');
  if (!(await mirror.storedInOrderFrom(0))) await mirror.storeInOrder();
  await mirror.run(CREATE_SCHEMA);
  await mirror.run('DELETE FROM mkt_amounts a WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.fee_amount = a.fee_amount)');
  await mirror.run('DELETE FROM mkt_walk');
  await mirror.run('DELETE FROM mkt_mirror');
  await mirror.run('INSERT INTO mkt_mirror (layout, service, filters, created_at, results_in_order) VALUES ($1, $2, $3, now(), $4)', [
    MIRROR_LAYOUT,
    identity.service,
    identity.filters,
    total,
  ]);
}

function sameIdentity(a: MirrorIdentity, b: MirrorIdentity): boolean {
  return a.service === b.service && a.filters === b.filters;
}

function differenceOf(recorded: MirrorIdentity, asked: MirrorIdentity, filters: MirrorFilters): string {
  if (recorded.service !== asked.service) return `the mirror holds results of ${recorded.service}, not ${asked.service}`;
  const held = describeFilters(JSON.parse(recorded.filters) as MirrorFilters);
  return `the mirror was synced with ${held}, and this sync names ${describeFilters(filters)}`;
}
