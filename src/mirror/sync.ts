import type { ResultsQuery } from '../api/filters.js';
import { IdSet } from '../api/id-set.js';
import { RECORD_ID_FIELDS, recordIdOf, type ServiceShape, shapeOfRecord } from '../api/record-id.js';
import type { FeeScheduleResultsPage, ResultRecord } from '../api/types.js';
import { checkSameShape, RepeatGuard, type ResultsSource } from '../api/walk.js';
import { MktError, UsageError } from '../core/errors.js';
import type { ProgressState } from '../io/progress.js';
import type { Mirror, MirrorIdentity, PendingWalk, ServiceState } from './mirror.js';
import { describeFilters, filtersText, inFilterSpelling, type MirrorFilters, newestPageQuery, SYNC_PAGE_SIZE } from './mirror-filters.js';
import { mirrorIndex, recordText, type StoredRecord, toStoredRecord } from './rows.js';
import { afterResultsReplaced, createStagingTables, MIRROR_LAYOUT } from './schema.js';

export interface SyncRequest {
  filters: MirrorFilters;
  /** The base URL, or `sandbox`. */
  service: string;
  /** Walk everything and rebuild the mirror, even for other filters or another service. */
  fullRefresh: boolean;
  now: () => number;
  /**
   * Pages staged between two commits (Deps.syncCommitPages).
   * @default COMMIT_EVERY_PAGES
   */
  commitEveryPages?: number;
  /** The first page of newest records, when the caller has already asked for it (newestPageQuery). */
  newestPage?: FeeScheduleResultsPage;
  /** After each page: pages and records read so far, and the pages a full walk reads. */
  onPage?: (progress: ProgressState) => void;
}

/**
 * A fee schedule: one exchange's results of one fee type, in the filter table's spelling. Null
 * where records carry none, which the service document says they never do, or a hand edited the mirror.
 */
export interface FeeSchedule {
  exchange_name: string | null;
  fee_type: string | null;
}

/** A version a sync brought records of, or took records of out of the mirror: once, whatever spellings its records use. */
export interface SyncedVersion extends FeeSchedule {
  version_id: string | null;
  records: number;
}

/** What a sync did, as `mkt sync --format json` writes it, in the contract's order (shared/cli-contract.md). */
export interface SyncSummary {
  mirror: string;
  new_records: number;
  /** Records whose id was there before with other values: found by full walks only. */
  changed_records: number;
  removed_records: number;
  /** The versions this sync brought records of that the mirror did not hold under them, and how many of each. */
  new_versions: SyncedVersion[];
  /** The versions the mirror no longer holds some or all records of, and how many left. */
  removed_versions: SyncedVersion[];
  /** The fee schedules of new_versions and removed_versions, each once. */
  changed_groups: FeeSchedule[];
  requests: number;
  total_records: number;
  full_walk: boolean;
}

/** Pages of a full walk in flight at once, as src/api/walk.ts. */
const PAGES_AHEAD = 4;
/**
 * A sync commits what it has staged at least this often, so that its memory stays bounded and a
 * killed full walk carries on from there.
 * A commit's time grows with its rows, not with the number of commits, and it runs while the
 * walk reads on, so that a sync is not held up by its own writes.
 */
const COMMIT_EVERY_PAGES = 100;
const COMMIT_EVERY_MS = 2000;
/** The order a sync stores records in, oldest first: created_on, or for 2026 records, which have none, scraped_time; then the id. */
const STORED_ORDER: Record<ServiceShape, string> = { interface: 'created_on, id', '2026': 'scraped_time, record_id' };

/** Full walks a sync makes before it gives up on a service that changes under each of them. */
const MAX_WALKS = 2;

const CREATED_ON = mirrorIndex('interface', 'created_on');

/**
 * Brings a mirror up to date with the service's answer for its filters (docs/mirror.md).
 *
 * Records are read newest first (created_on, descending) until the mirror's newest is reached;
 * if the mirror's count plus the new records then equals the service's total_records, those
 * records are all that changed. Otherwise, and at the first sync or with --full-refresh, every
 * page is walked, oldest first (walkEverything). Either way the records read are staged in
 * mkt_walk_results, committed every few pages, and join or replace the mirror's in one transaction.
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
  // The shape the mirror's records have, which every page must have too: a mirror holds one
  // (docs/mirror.md). One that holds none yet takes the shape of the records that come.
  const holdsRecords = recorded !== undefined && !request.fullRefresh && (await mirror.count()) > 0;
  // A mirror of 2026 records an earlier mkt kept in the interface's columns is rebuilt by a full walk.
  const inItsColumns = !holdsRecords || (await mirror.tableShape('results')) === mirror.shape;
  const shapes: ShapeCheck = { host: source.host, shape: holdsRecords ? mirror.shape : undefined, service: request.service, pages: 0 };
  if (request.newestPage) checkPageShape(shapes, request.newestPage);
  // A page the caller asked for was a request of this sync too.
  let requests = request.newestPage ? 1 : 0;
  const fetchPage = async (query: ResultsQuery): Promise<FeeScheduleResultsPage> => {
    requests++;
    return checkPageShape(shapes, await source.fetchResultsPage(query));
  };
  const walker: Walker = { mirror, host: source.host, fetchPage, identity, request };

  const pending = await mirror.pendingWalk();
  let outcome: Outcome | undefined;
  let service = request.newestPage && serviceStateOf(request.newestPage);
  if (recorded && !request.fullRefresh && !pending && inItsColumns) {
    const newest = await readNewest(walker);
    outcome = newest.outcome;
    service = newest.service;
  }
  const fullWalk = outcome === undefined;
  outcome ??= await walkEverything(walker, pending, service);
  const summary: SyncSummary = {
    mirror: mirror.path,
    new_records: outcome.newRecords,
    changed_records: outcome.changedRecords,
    removed_records: outcome.removedRecords,
    new_versions: outcome.newVersions,
    removed_versions: outcome.removedVersions,
    changed_groups: feeSchedulesOf([...outcome.newVersions, ...outcome.removedVersions]),
    requests,
    total_records: outcome.totalRecords,
    full_walk: fullWalk,
  };
  await mirror.transaction(async () => {
    if (fullWalk) await replaceResults(mirror, identity, shapes.shape ?? 'interface');
    else await appendResults(mirror, outcome.newRecords, shapes.shape);
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

/** The shape a sync's pages must have: the mirror's, or, at a first sync or with --full-refresh, the first record's. */
interface ShapeCheck {
  host: string;
  shape: ServiceShape | undefined;
  service: string;
  /** Pages checked: the first alone may show a service of the other shape; a later page that changes shape is a malformed answer. */
  pages: number;
}

/**
 * A page, once its records are of the shape the sync's are. A service that answers in the other
 * shape than the mirror's records is a usage error, said before anything is written: the mirror
 * holds one column set, and only --full-refresh makes it hold the other.
 */
function checkPageShape(check: ShapeCheck, page: FeeScheduleResultsPage): FeeScheduleResultsPage {
  const [first] = page.data;
  if (first !== undefined && check.shape !== undefined && check.pages === 0 && shapeOfRecord(first) !== check.shape) {
    throw new UsageError(`the mirror holds records of the ${check.shape} shape, and ${check.service} answers in the ${shapeOfRecord(first)} shape`, {
      hint: 'Rebuild the mirror with `mkt sync --full-refresh`, or name another with --mirror.',
    });
  }
  for (const record of page.data) check.shape = checkSameShape(check.host, check.shape, record, page.current_page);
  check.pages++;
  return page;
}

/** What reading the service's pages into a mirror takes. */
interface Walker {
  mirror: Mirror;
  host: string;
  fetchPage: (query: ResultsQuery) => Promise<FeeScheduleResultsPage>;
  identity: MirrorIdentity;
  request: SyncRequest;
}

/** What a newest-first page says of the whole service. */
function serviceStateOf(page: FeeScheduleResultsPage): ServiceState {
  const [newest] = page.data;
  return { total: page.total_records, newest: newest && recordIdOf(newest) };
}

/** What a sync found, before it is committed. */
interface Outcome {
  newRecords: number;
  removedRecords: number;
  changedRecords: number;
  newVersions: SyncedVersion[];
  removedVersions: SyncedVersion[];
  totalRecords: number;
}

/**
 * The records newer than the mirror's newest, staged, or no outcome when they do not account for
 * the service's total (something was withdrawn, or added among older records) or one read is a
 * record the mirror holds with other content (its id given again): then only a full walk can
 * tell. A page of records all known while the counts agree ends the reading early, so a sync that
 * finds nothing costs one request. Also what the service's newest page said, which a full walk
 * after it starts from.
 */
async function readNewest(walker: Walker): Promise<{ outcome?: Outcome; service: ServiceState }> {
  const { mirror, host, fetchPage, request } = walker;
  const known = await mirror.ids('results');
  const count = known.size;
  const newest = await mirror.newestCreatedOn();
  // What a sync stopped part way staged: its records are read again.
  if ((await mirror.count('mkt_walk_results')) > 0) await mirror.transaction(() => discardWalk(mirror));
  const staging = new Staging(mirror, request.now, request.commitEveryPages);
  let service: ServiceState | undefined;
  let guard: RepeatGuard | undefined;
  let added = 0;
  let total = 0;
  let read = 0;
  try {
    for (let pageNumber = 0; ; pageNumber++) {
      const page = pageNumber === 0 && request.newestPage ? request.newestPage : await fetchPage({ ...newestPageQuery(request.filters), page_number: pageNumber });
      service ??= serviceStateOf(page);
      guard ??= new RepeatGuard(page.total_pages - 1);
      read += page.data.length;
      request.onPage?.({ page: pageNumber + 1, records: read });
      total = page.total_records;
      let reachedOlder = false;
      const unknown: StoredRecord[] = [];
      const held: ResultRecord[] = [];
      for (const record of page.data) {
        const stored = toStoredRecord(record, host);
        const createdOn = stored.shape === 'interface' ? (stored.values[CREATED_ON] as bigint) : null;
        if (newest !== undefined && createdOn !== null && createdOn < newest) reachedOlder = true;
        if (known.add(recordIdOf(record))) unknown.push(stored);
        else held.push(record);
      }
      // Records without created_on (the 2026 shape's), read in the service's created_on order all
      // the same: the first the mirror holds is where its records begin (docs/mirror.md).
      if (newest === undefined && held.length > 0) reachedOlder = true;
      // A record the mirror holds under its id with other content: only a full walk tells what else changed.
      // Asked once the commit under way has ended, rather than between its statements, within its transaction.
      await staging.settle();
      if (await holdsOtherContent(mirror, held)) return { service: service as ServiceState };
      added += unknown.length;
      await staging.addPage(unknown);
      guard.afterPage(pageNumber, page.data.length, unknown.length);
      const accountedFor = count + added === total;
      if (pageNumber >= page.total_pages - 1 || reachedOlder || (unknown.length === 0 && accountedFor)) break;
    }
    await staging.flush();
  } finally {
    await staging.settle();
  }
  // In a mirror of the latest versions, a new version's records push out its predecessor's.
  if (count + added !== total || (request.filters.latest_only && added > 0)) return { service: service as ServiceState };
  const outcome = {
    newRecords: added,
    removedRecords: 0,
    changedRecords: 0,
    newVersions: await stagedVersions(mirror),
    // The records read only join the mirror's: none leaves.
    removedVersions: [],
    totalRecords: total,
  };
  return { outcome, service: service as ServiceState };
}

/** Whether the mirror holds any of these records' ids with other content (recordText). Ids it does not hold (a page repeating one staged) are none. */
async function holdsOtherContent(mirror: Mirror, records: readonly ResultRecord[]): Promise<boolean> {
  const held = await mirror.recordTextsById(records.map(recordIdOf));
  return records.some((record) => {
    const text = held.get(recordIdOf(record));
    return text !== undefined && text !== recordText(record);
  });
}

/**
 * A sync's records, appended to mkt_walk_results a batch at a time so that what a sync holds in
 * memory stays bounded however much it reads: a commit every `commitEveryPages` pages or
 * COMMIT_EVERY_MS, which runs while the walk reads on. A full walk's commit also notes the page
 * to go on from.
 */
class Staging {
  private buffered: StoredRecord[] = [];
  private pages = 0;
  private lastCommit: number;
  /** The commit under way. At most one: the next awaits it, and fails with it. */
  private committing: Promise<void> = Promise.resolve();

  constructor(
    private readonly mirror: Mirror,
    private readonly now: () => number,
    private readonly commitEveryPages = COMMIT_EVERY_PAGES,
  ) {
    this.lastCommit = now();
  }

  /** A page's records to stage; commits those buffered when a commit is due, noting `nextPage` (a full walk's). */
  async addPage(records: readonly StoredRecord[], nextPage?: number): Promise<void> {
    for (const record of records) this.buffered.push(record);
    this.pages++;
    if (this.pages >= this.commitEveryPages || this.now() - this.lastCommit >= COMMIT_EVERY_MS) await this.commit(nextPage);
  }

  /** Commits what is buffered, and waits for every commit. */
  async flush(nextPage?: number): Promise<void> {
    if (this.pages > 0) await this.commit(nextPage);
    await this.committing;
  }

  /** After a failure or Ctrl-C: what arrived is committed if it can be (the next sync carries on from it). */
  async keep(nextPage: number): Promise<void> {
    if (this.pages > 0) await this.commit(nextPage).catch(() => {});
  }

  /** Leaves no commit running, whatever became of it: the walk's own error, if any, is what is said. */
  async settle(): Promise<void> {
    await this.committing.catch(() => {});
  }

  private async commit(nextPage: number | undefined): Promise<void> {
    await this.committing;
    const records = this.buffered;
    this.buffered = [];
    this.pages = 0;
    this.lastCommit = this.now();
    this.committing = this.mirror.transaction(async () => {
      await this.mirror.append('mkt_walk_results', records);
      if (nextPage !== undefined) await this.mirror.run('UPDATE mkt_walk SET next_page = $1', [nextPage]);
    });
    this.committing.catch(() => {}); // awaited by the next commit
  }
}

/**
 * Every page, into mkt_walk_results, until a walk finds the service as it left it (walkOnce),
 * at most MAX_WALKS times: a walk that the service changed under is begun again, from the state
 * it ended on. A walk a previous sync left unfinished is carried on when it noted where it began.
 */
async function walkEverything(walker: Walker, pending: PendingWalk | undefined, service: ServiceState | undefined): Promise<Outcome> {
  const { mirror, identity } = walker;
  let resume = pending?.start && sameIdentity(pending, identity) && pending.pageSize === SYNC_PAGE_SIZE ? { nextPage: pending.nextPage, start: pending.start } : undefined;
  let start = service;
  for (let walk = 1; ; walk++) {
    const walked = await walkOnce(walker, resume, start);
    if (walked.total !== undefined) return countChanges(mirror, walked.total);
    if (walk === MAX_WALKS) {
      await mirror.transaction(() => discardWalk(mirror));
      throw new MktError(`the results changed during the sync, under each of its ${MAX_WALKS} walks`, {
        hint: 'Run `mkt sync` again: the mirror is as it was before this sync.',
      });
    }
    resume = undefined;
    start = walked.end;
  }
}

/**
 * One walk of every page, oldest first, into mkt_walk_results: records added during the walk
 * land on its last pages rather than shift the ones still to come. Whether the mirror may take
 * what it staged is told by the service's newest page before the walk (`start`, answered before
 * the walk's first page is asked for) and after it. The same count and newest record: nothing
 * was withdrawn in between, since only records added, which come newest, make up for a
 * withdrawal in the count, and they would be the newest. A greater count: records were only
 * added if the start's newest still has exactly as many records before it, newest first, as the
 * count grew by, and the newest now is staged. A page whose count falls below the start's ends
 * the walk at once. Any other change returns no total, and the service as the walk left it, for
 * the next walk to start from.
 */
async function walkOnce(walker: Walker, resume: { nextPage: number; start: ServiceState } | undefined, service: ServiceState | undefined): Promise<{ total?: number; end?: ServiceState }> {
  const { mirror, host, fetchPage, identity, request } = walker;
  /** The record at a place counted from the newest, on a page of one. */
  const newestQuery = (place: number): ResultsQuery => ({ ...newestPageQuery(request.filters), page_size: 1, page_number: place });
  const pageQuery = (pageNumber: number): ResultsQuery => ({
    ...request.filters,
    page_size: SYNC_PAGE_SIZE,
    order_by: 'created_on',
    order_dir: 'asc',
    page_number: pageNumber,
  });
  let firstPage = 0;
  let staged: IdSet;
  let start: ServiceState;
  if (resume) {
    ({ nextPage: firstPage, start } = resume);
    staged = await mirror.ids('mkt_walk_results');
  } else {
    start = service ?? serviceStateOf(await fetchPage(newestQuery(0)));
    await mirror.transaction(async () => {
      await discardWalk(mirror);
      await mirror.run('INSERT INTO mkt_walk (service, filters, page_size, next_page, started_at, total_records, newest_id) VALUES ($1, $2, $3, 0, now(), $4, $5)', [
        identity.service,
        identity.filters,
        SYNC_PAGE_SIZE,
        start.total,
        start.newest ?? null,
      ]);
    });
    staged = new IdSet();
  }

  const first = await fetchPage(pageQuery(firstPage));
  let lastPage = Math.max(firstPage, first.total_pages - 1);
  const guard = new RepeatGuard(lastPage);
  const inFlight = new Map<number, Promise<FeeScheduleResultsPage>>([[firstPage, Promise.resolve(first)]]);
  let nextToRequest = firstPage + 1;
  const staging = new Staging(mirror, request.now, request.commitEveryPages);
  /** The page after the last whose records are all staged or buffered. */
  let walkedTo = firstPage;
  try {
    for (let pageNumber = firstPage; pageNumber <= lastPage; pageNumber++) {
      while (nextToRequest <= lastPage && inFlight.size < PAGES_AHEAD) {
        const answer = fetchPage(pageQuery(nextToRequest));
        answer.catch(() => {}); // awaited in order below
        inFlight.set(nextToRequest++, answer);
      }
      const page = await (inFlight.get(pageNumber) as Promise<FeeScheduleResultsPage>);
      inFlight.delete(pageNumber);
      // Records withdrawn since the walk began: those after them have moved to pages already read.
      if (page.total_records < start.total) return {};
      // Records added during the walk make more pages: they are walked too.
      lastPage = Math.max(lastPage, page.total_pages - 1);
      const fresh = page.data.map((record) => toStoredRecord(record, host)).filter((record) => staged.add(record.values[0] as string));
      guard.afterPage(pageNumber, page.data.length, fresh.length);
      request.onPage?.({ page: pageNumber + 1, totalPages: lastPage + 1, records: staged.size });
      walkedTo = pageNumber + 1;
      await staging.addPage(fresh, walkedTo);
    }
    await staging.flush(lastPage + 1);
  } catch (error) {
    // What arrived before a failure or Ctrl-C is kept: the next sync carries on from it.
    await staging.keep(walkedTo);
    throw error;
  } finally {
    await staging.settle();
  }

  const end = serviceStateOf(await fetchPage(newestQuery(0)));
  const unchanged = end.total === start.total && end.newest === start.newest;
  if (unchanged && staged.size !== end.total) {
    await mirror.transaction(() => discardWalk(mirror));
    throw new MktError(`the service's pages held ${staged.size} distinct records, but it reports ${end.total}`, {
      hint: 'Run `mkt sync` again: the mirror is as it was before this sync.',
    });
  }
  const onlyAdded = async () =>
    end.total > start.total
    && (end.newest === undefined || staged.has(end.newest))
    && (start.total === 0 || serviceStateOf(await fetchPage(newestQuery(end.total - start.total))).newest === start.newest);
  if (staged.size === end.total && (unchanged || (await onlyAdded()))) return { total: end.total };
  return { end };
}

/** Forgets an unfinished walk: its staging tables are made anew, empty. Within a transaction. */
async function discardWalk(mirror: Mirror): Promise<void> {
  await mirror.run('DELETE FROM mkt_walk');
  await mirror.run('DROP TABLE mkt_walk_results');
  await mirror.run('DROP TABLE mkt_walk_timestamp_text');
  await mirror.run(createStagingTables(await mirror.tableShape('results')));
}

/**
 * The versions of `records` (a query of `r`), one row each whatever the spellings of its
 * records, by exchange, fee type and version_id. A version whose records name two exchanges
 * (which the service document does not foresee) goes under the first of them.
 */
async function versionsOf(mirror: Mirror, records: string): Promise<SyncedVersion[]> {
  const versions = await mirror.rows(
    `SELECT * FROM (
       SELECT min(r.exchange_name) AS exchange_name, min(r.fee_type) AS fee_type, r.version_id, count(*)::INTEGER AS records
       FROM ${records} GROUP BY r.version_id)
     ORDER BY exchange_name, lower(fee_type), version_id`,
  );
  return versions.map((row) => ({
    exchange_name: row.exchange_name as string | null,
    fee_type: row.fee_type === null ? null : inFilterSpelling('fee_type', row.fee_type as string),
    version_id: row.version_id as string | null,
    records: row.records as number,
  }));
}

/** The shapes whose columns `results` and the staging table have, and the column of each that holds a record's id. */
async function recordTables(mirror: Mirror) {
  const results = await mirror.tableShape('results');
  const staged = await mirror.tableShape('mkt_walk_results');
  return { results, staged, resultsId: RECORD_ID_FIELDS[results], stagedId: RECORD_ID_FIELDS[staged] };
}

/** The staged records the mirror does not hold under their id and version: a record whose id another version had counts for the new one. */
async function stagedVersions(mirror: Mirror): Promise<SyncedVersion[]> {
  const { resultsId, stagedId } = await recordTables(mirror);
  return versionsOf(mirror, `mkt_walk_results r ANTI JOIN results m ON m.${resultsId} = r.${stagedId} AND m.version_id = r.version_id`);
}

/** The mirror's records a full walk did not stage under their id and version: withdrawn, or come back under another version. */
async function leavingVersions(mirror: Mirror): Promise<SyncedVersion[]> {
  const { resultsId, stagedId } = await recordTables(mirror);
  return versionsOf(mirror, `results r ANTI JOIN mkt_walk_results w ON w.${stagedId} = r.${resultsId} AND w.version_id = r.version_id`);
}

/** The fee schedules of `versions`, each once, in order. */
function feeSchedulesOf(versions: readonly SyncedVersion[]): FeeSchedule[] {
  const schedules = new Map<string, FeeSchedule>();
  for (const { exchange_name, fee_type } of versions) schedules.set(JSON.stringify([exchange_name, fee_type]), { exchange_name, fee_type });
  const order = (a: string | null, b: string | null) => (`${a}` < `${b}` ? -1 : `${a}` > `${b}` ? 1 : 0);
  return [...schedules.values()].sort((a, b) => order(a.exchange_name, b.exchange_name) || order(a.fee_type, b.fee_type));
}

/** What replacing the mirror's results with the staged ones changes. */
async function countChanges(mirror: Mirror, total: number): Promise<Outcome> {
  const { results, staged, resultsId, stagedId } = await recordTables(mirror);
  const [added] = await mirror.rows(`SELECT count(*)::INTEGER AS n FROM mkt_walk_results w ANTI JOIN results r ON r.${resultsId} = w.${stagedId}`);
  const [removed] = await mirror.rows(`SELECT count(*)::INTEGER AS n FROM results r ANTI JOIN mkt_walk_results w ON r.${resultsId} = w.${stagedId}`);
  // Content as the service spelled it: the values, and the spellings kept of their timestamps.
  const spelled = (records: string, texts: string, id: string) =>
    `SELECT r.*, t.scraped_time AS scraped_time_text, t.created_on AS created_on_text FROM ${records} r LEFT JOIN ${texts} t ON t.id = r.${id}`;
  // Records of another shape than the mirror's (--full-refresh) have no content in common with its records.
  const [changed] = results !== staged ? [{ n: 0 }] : await mirror.rows(
    `SELECT count(*)::INTEGER AS n FROM (
       ${spelled('mkt_walk_results', 'mkt_walk_timestamp_text', stagedId)} WHERE r.${stagedId} IN (SELECT ${resultsId} FROM results)
       EXCEPT ${spelled('results', 'mkt_timestamp_text', resultsId)})`,
  );
  return {
    newRecords: added?.n as number,
    removedRecords: removed?.n as number,
    changedRecords: changed?.n as number,
    newVersions: await stagedVersions(mirror),
    removedVersions: await leavingVersions(mirror),
    totalRecords: total,
  };
}

/**
 * The staged new records join the mirror's, oldest first, as a full walk stores them: a query
 * without ORDER BY reads `results` in one order. Within a transaction.
 */
async function appendResults(mirror: Mirror, newRecords: number, shape: ServiceShape | undefined): Promise<void> {
  if (newRecords === 0) return;
  // The first records of a mirror that held none say its shape.
  if (shape !== undefined) await mirror.run('UPDATE mkt_mirror SET shape = $1', [shape]);
  const { staged } = await recordTables(mirror);
  await mirror.layOut('results', staged);
  await mirror.run(`INSERT INTO results SELECT * FROM mkt_walk_results ORDER BY ${STORED_ORDER[staged]}`);
  await mirror.run('INSERT INTO mkt_timestamp_text SELECT * FROM mkt_walk_timestamp_text');
  await mirror.run('DELETE FROM mkt_walk_results');
  await mirror.run('DELETE FROM mkt_walk_timestamp_text');
}

/** The staged records become the mirror's; those that left are noted in mkt_removed_results. Within a transaction. */
async function replaceResults(mirror: Mirror, identity: MirrorIdentity, shape: ServiceShape): Promise<void> {
  const { results, staged, resultsId, stagedId } = await recordTables(mirror);
  // By name: in a mirror an earlier mkt made, the citation columns come after removed_at (src/mirror/schema.ts).
  if (results === staged) await mirror.run(`INSERT INTO mkt_removed_results BY NAME SELECT r.*, now() AS removed_at FROM results r ANTI JOIN mkt_walk_results w ON r.${resultsId} = w.${stagedId}`);
  // Records of the other shape do not fit the new records' columns: the table is made anew below.
  else await mirror.run('DROP TABLE mkt_removed_results');
  // The staging tables become the mirror's, renamed rather than copied: a copy would write every
  // record to the file a second time. Empty staging tables are made again, and the view over the
  // new results.
  await mirror.run('DROP TABLE results');
  await mirror.run('ALTER TABLE mkt_walk_results RENAME TO results');
  await mirror.run('DROP TABLE mkt_timestamp_text');
  await mirror.run('ALTER TABLE mkt_walk_timestamp_text RENAME TO mkt_timestamp_text');
  await mirror.run(afterResultsReplaced(staged));
  await mirror.readColumns();
  await mirror.run('DELETE FROM mkt_amounts a WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.fee_amount = a.fee_amount)');
  await mirror.run('DELETE FROM mkt_walk');
  await mirror.run('DELETE FROM mkt_mirror');
  await mirror.run('INSERT INTO mkt_mirror (layout, service, filters, created_at, shape) VALUES ($1, $2, $3, now(), $4)', [MIRROR_LAYOUT, identity.service, identity.filters, shape]);
}

function sameIdentity(a: MirrorIdentity, b: MirrorIdentity): boolean {
  return a.service === b.service && a.filters === b.filters;
}

function differenceOf(recorded: MirrorIdentity, asked: MirrorIdentity, filters: MirrorFilters): string {
  if (recorded.service !== asked.service) return `the mirror holds results of ${recorded.service}, not ${asked.service}`;
  const held = describeFilters(JSON.parse(recorded.filters) as MirrorFilters);
  return `the mirror was synced with ${held}, and this sync names ${describeFilters(filters)}`;
}
