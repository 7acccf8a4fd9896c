import type { ResultsQuery } from '../api/filters.js';
import type { FeeScheduleResult } from '../api/types.js';
import { MktError } from '../errors.js';
import type { ServiceClient } from './client.js';

export interface WalkProgress {
  /** Pages fetched so far. */
  page: number;
  totalPages: number;
  records: number;
}

export interface WalkOptions {
  /** Stop after this many records. */
  limit?: number;
  /** Walk every page; otherwise stop after the first unless `limit` needs more. */
  all: boolean;
  onPage?: (progress: WalkProgress) => void;
}

/**
 * The records of the results endpoint, page after page, as the document's pagination rules
 * say: pages 0 … total_pages − 1 at one page size. Yields each page's records as it arrives,
 * so a consumer writes them before the next page is fetched.
 */
export async function* walkResults(
  client: ServiceClient,
  query: ResultsQuery,
  options: WalkOptions,
): AsyncGenerator<FeeScheduleResult> {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let pageNumber = query.page_number ?? 0;
  let yielded = 0;
  let expectedTotal: number | undefined;
  let pagesFetched = 0;
  for (;;) {
    const page = await client.fetchResultsPage({ ...query, page_number: pageNumber });
    pagesFetched++;
    if (expectedTotal === undefined) {
      expectedTotal = page.total_records;
    } else if (page.total_records !== expectedTotal) {
      throw new MktError(
        `the results changed during the walk: total_records went from ${expectedTotal} to ${page.total_records} at page ${pageNumber}`,
        { hint: 'Run the command again.' },
      );
    }
    for (const record of page.data) {
      if (yielded >= limit) return;
      yield record;
      yielded++;
    }
    options.onPage?.({ page: pagesFetched, totalPages: page.total_pages, records: yielded });
    pageNumber++;
    const morePages = pageNumber < page.total_pages && page.data.length > 0;
    const wantMore = options.all || (options.limit !== undefined && yielded < limit);
    if (!morePages || !wantMore || yielded >= limit) return;
  }
}
