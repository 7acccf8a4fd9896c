import { MktError, thenSays } from '../core/errors.js';
import type { ServiceClient } from './client.js';
import type { ResultsQuery } from './filters.js';
import { IdSet } from './id-set.js';
import { malformedAnswer } from './results-page.js';
import { recordIdOf, type ServiceShape, shapeOfRecord } from './record-id.js';
import type { FeeScheduleResultsPage, ResultRecord } from './types.js';

/** Where results pages come from: the service, or a mirror answering as the service would (`--offline`). */
export type ResultsSource = Pick<ServiceClient, 'host' | 'fetchResultsPage'>;

/** Where a walk is, after each page. */
export interface WalkProgress {
  /** Pages fetched so far. */
  page: number;
  /** Pages this walk fetches in all. */
  totalPages: number;
  /** Distinct records so far. */
  records: number;
  /** What the first page said of the whole query: every matching record, on so many pages. */
  service: { records: number; pages: number };
  /** The page number the walk started at (0 unless --page-number). */
  firstPage: number;
  /** The shape of the answer (its envelope, or the mirror's), which says the columns when no record does. */
  shape: ServiceShape;
}

export interface WalkOptions {
  /** Walk every page; otherwise stop after the first unless `limit` needs more. */
  all: boolean;
  /** Stop after this many records. */
  limit?: number;
  /**
   * Pages requested at once. Records are still yielded in page order.
   * @default 4
   */
  concurrency?: number;
  /** Accept a walk whose total changes or does not add up, with a warning, instead of failing. */
  allowDrift?: boolean;
  warn: (message: string) => void;
  onPage?: (progress: WalkProgress) => void;
}

const DEFAULT_CONCURRENCY = 4;

/** What --dry-run says follows a walk's first request, from page `next` on: to the last page, or until `limit` records. */
export function pagesFollow(next: number, limit?: number): string {
  const until = limit === undefined ? "as many pages as its answer's total_pages says" : `until ${limit} records (--limit) or its answer's total_pages`;
  return `then the same request with page_number=${next}, ${next + 1}, …, ${until}`;
}

/** Pages in a row that bring no record a walk had not seen, after which it stops. */
const PAGES_WITH_NOTHING_NEW = 10;

/**
 * Stops a walk that a server keeps feeding records it has already sent, or pages well past the
 * count it gave at the start: either would otherwise run for as long as the server likes, a count
 * of 2⁵³ − 1 records being 90 trillion pages. The margin leaves room for records the service
 * adds during a long walk, which a sync walks too.
 */
export class RepeatGuard {
  private pagesWithNothingNew = 0;
  private readonly lastPageAllowed: number;

  /** `lastPage`: the last page the walk's first answer made it plan to read. */
  constructor(lastPage: number) {
    this.lastPageAllowed = lastPage + Math.max(100, Math.ceil(lastPage / 10));
  }

  /** After page `pageNumber`, which held `records` records, `fresh` of them not seen before in the walk. */
  afterPage(pageNumber: number, records: number, fresh: number): void {
    if (pageNumber > this.lastPageAllowed) throw keepsSendingTheSameRecords(`page ${pageNumber} is far past the pages it reported`);
    if (fresh > 0) this.pagesWithNothingNew = 0;
    else if (records > 0 && ++this.pagesWithNothingNew >= PAGES_WITH_NOTHING_NEW) {
      throw keepsSendingTheSameRecords(`${PAGES_WITH_NOTHING_NEW} pages in a row held none it had not sent before (page ${pageNumber})`);
    }
  }
}

function keepsSendingTheSameRecords(detail: string): MktError {
  return new MktError(`the service keeps sending the same records: ${detail}`);
}

/**
 * The shape of a walk's records (src/api/record-id.ts), which the first decides: CSV, Parquet and
 * the mirror write one column set for the whole walk, so a record of the other shape after it is
 * a malformed answer.
 */
export function checkSameShape(host: string, walkShape: ServiceShape | undefined, record: object, pageNumber: number): ServiceShape {
  const shape = shapeOfRecord(record);
  if (walkShape !== undefined && shape !== walkShape) {
    throw malformedAnswer(host, `page ${pageNumber} holds a record of the ${shape} shape after records of the ${walkShape} shape`);
  }
  return shape;
}

/** The results changed during a walk, which `results --allow-drift` accepts and `mkt tap` reports in its own words. */
export class DriftError extends MktError {
  constructor(message: string) {
    super(message, { hint: 'The data changed while it was read: run the command again, or add --allow-drift to accept it.' });
  }
}

/**
 * The records of the results endpoint, as the document's pagination rules say: pages
 * 0 … total_pages − 1 at one page size. A few pages are in flight at once, but each page's
 * records are yielded, in page order, as it arrives, so a consumer writes them before later
 * pages are fetched and at most `concurrency` pages are held. Records are deduplicated by id,
 * and a total that changes or does not add up, or an empty page before the last, fails the
 * walk rather than yielding a short one. Each page's envelope is checked by the client, so the
 * first page's own arithmetic bounds the pages asked for, and pages that keep repeating records
 * stop the walk (RepeatGuard) before that bound, which a server may set at 2⁵³ − 1 records.
 */
export async function* walkResults(
  client: ResultsSource,
  query: ResultsQuery,
  options: WalkOptions,
): AsyncGenerator<readonly ResultRecord[]> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const firstPage = query.page_number ?? 0;
  const fetchPage = (pageNumber: number) => client.fetchResultsPage({ ...query, page_number: pageNumber });

  const more = options.all || (options.limit !== undefined && options.limit > (query.page_size ?? 0));
  const first = await (more ? thenSays(fetchPage(firstPage), pagesFollow(firstPage + 1, options.all ? undefined : options.limit)) : fetchPage(firstPage));
  const expectedTotal = first.total_records;
  // The size the server says it used, which tiles the pages, rather than the size asked.
  const pageSize = first.page_size;
  const pagesForLimit = options.limit === undefined ? 1 : Math.ceil(options.limit / pageSize);
  const lastPage = options.all ? first.total_pages - 1 : Math.min(first.total_pages - 1, firstPage + pagesForLimit - 1);

  const seen = new IdSet();
  // A page asked for past the last is answered empty, and ends the walk.
  const guard = new RepeatGuard(Math.max(firstPage, lastPage));
  let pagesReceived = 0;
  let driftReported = false;
  const drift = (message: string) => {
    if (!options.allowDrift) throw new DriftError(message);
    if (!driftReported) options.warn(`${message}; continuing because of --allow-drift`);
    driftReported = true;
  };

  const inFlight = new Map<number, Promise<FeeScheduleResultsPage>>();
  let shape: ServiceShape | undefined;
  let nextToRequest = firstPage + 1;
  const requestAhead = () => {
    while (nextToRequest <= lastPage && inFlight.size < (options.concurrency ?? DEFAULT_CONCURRENCY)) {
      const pending = fetchPage(nextToRequest);
      pending.catch(() => {}); // awaited in order below; this only keeps an early failure from being "unhandled"
      inFlight.set(nextToRequest, pending);
      nextToRequest++;
    }
  };

  for (let pageNumber = firstPage; ; pageNumber++) {
    requestAhead();
    let page = first;
    if (pageNumber !== firstPage) {
      page = await (inFlight.get(pageNumber) as Promise<FeeScheduleResultsPage>);
      inFlight.delete(pageNumber);
    }
    pagesReceived++;
    // Pages of another size no longer tile the records: the document reads every page at one size.
    if (page.page_size !== pageSize) {
      throw malformedAnswer(client.host, `page_size changed from ${pageSize} to ${page.page_size} during the walk (page ${pageNumber})`);
    }
    if (page.total_records !== expectedTotal) {
      drift(`total_records changed from ${expectedTotal} to ${page.total_records} during the walk (page ${pageNumber})`);
    }
    if (page.data.length === 0 && pageNumber < first.total_pages - 1) {
      drift(`page ${pageNumber} is empty, but the service reported ${expectedTotal} records on ${first.total_pages} pages`);
    }
    const records: ResultRecord[] = [];
    let index = 0;
    for (; index < page.data.length && seen.size < limit; index++) {
      const record = page.data[index] as ResultRecord;
      shape = checkSameShape(client.host, shape, record, pageNumber);
      if (seen.add(recordIdOf(record))) records.push(record);
    }
    guard.afterPage(pageNumber, index, records.length);
    options.onPage?.({
      page: pagesReceived,
      totalPages: lastPage - firstPage + 1,
      records: seen.size,
      service: { records: first.total_records, pages: first.total_pages },
      firstPage,
      shape: first.shape,
    });
    if (records.length > 0) yield records;
    if (index < page.data.length) return; // --limit reached within the page
    if (pageNumber >= lastPage || seen.size >= limit) break;
  }

  const walkedEverything = options.all && seen.size < limit;
  // A walk from a later page (the tap's, from its bookmark) reads the records of that page on.
  const expectedRecords = expectedTotal - firstPage * pageSize;
  if (walkedEverything && seen.size !== expectedRecords) {
    const from = firstPage === 0 ? '' : `, ${expectedRecords} of them from page ${firstPage} on`;
    drift(`received ${seen.size} distinct records, but the service reported ${expectedTotal}${from}`);
  }
}
