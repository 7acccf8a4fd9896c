import type { ServiceClient } from './client.js';
import { NotFoundError, thenSays } from '../core/errors.js';
import type { Includes } from './results-query.js';
import type { FeeScheduleResultsPage, ResultRecord } from './types.js';
import { pagesFollow, type ResultsSource, type WalkOptions, walkResults } from './walk.js';

/** A version's pages are asked at the largest size the service gives: fewer requests. */
const VERSION_PAGE_SIZE = 100;

/**
 * Every record of one version, from GET /api/v1/fee-schedule-results/versions/{version_id}, walked
 * as `results --all` walks (walkResults: the envelope, tie and progress checks hold), or undefined
 * when the service does not offer the endpoint, which its answer to the first page tells.
 */
export async function walkVersion(
  client: Pick<ServiceClient, 'host' | 'fetchVersionPage'>,
  versionId: string,
  includes: Includes,
  options: Omit<WalkOptions, 'all'>,
): Promise<AsyncGenerator<readonly ResultRecord[]> | undefined> {
  const query = { page_size: VERSION_PAGE_SIZE, ...includes };
  const first = await thenSays(client.fetchVersionPage(versionId, { ...query, page_number: 0 }), pagesFollow(1));
  if (first === undefined) return undefined;
  let firstPage: FeeScheduleResultsPage | undefined = first;
  const pages: ResultsSource = {
    host: client.host,
    async fetchResultsPage(pageQuery) {
      const page = pageQuery.page_number === 0 ? firstPage : undefined;
      firstPage = undefined;
      return page ?? (await client.fetchVersionPage(versionId, pageQuery)) ?? missingPage(client.host, pageQuery.page_number ?? 0);
    },
  };
  return walkResults(pages, query, { ...options, all: true });
}

/** A service that answered the first page and not a later one no longer offers the endpoint: the walk cannot be whole. */
function missingPage(host: string, page: number): never {
  throw new NotFoundError(`${host} answered 404 for page ${page} of the version, after its first page`, { httpStatus: 404 });
}
