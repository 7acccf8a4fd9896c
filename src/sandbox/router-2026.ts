import type { IncomingMessage } from 'node:http';
import { API_PREFIX, AVAILABLE_FILTERS_PATH, RESULTS_KEY_HEADER, RESULTS_PATH } from '../api/paths.js';
import type { FeeScheduleResult2026 } from '../api/types.js';
import { ControlRoute, isControlPath } from './control-route.js';
import { exchangeResource, RESOURCE_BY_PATH } from './exchange-routes.js';
import { facetsOf, facetValues, serveExchangeList, visibleForFilters } from './filters-route.js';
import { isLicensedFor, type Licence, licenceOf } from './keys.js';
import { Record2026Builder } from './record-2026.js';
import { errorResponse, jsonResponse, queryTimeMs, type Router, type SandboxResponse } from './responses.js';
import type { ResultsDataset } from './results-dataset.js';
import { parseResultsQuery, readIncludes, readPage } from './results-query.js';
import { ResultsIndex } from './results-search.js';
import { formatDate } from './time.js';
import { QueryReader, type ValidationIssue } from './validation.js';
import { venueAt } from './venues.js';
import { venueIndexIn, VOCABULARY_2026 } from './vocabulary.js';

const EXCHANGES_PREFIX = `${API_PREFIX}/exchanges/`;
const RESULTS_PREFIX = `${RESULTS_PATH}/`;
const VERSIONS_PREFIX = `${RESULTS_PATH}/versions/`;

function invalid(issues: readonly ValidationIssue[], startedAt: number): SandboxResponse {
  return errorResponse(422, 'VALIDATION_ERROR', 'Invalid query parameters.', startedAt, issues);
}

/** The results page envelope of the 2026 edition: `{data, meta}`. */
function page(data: FeeScheduleResult2026[], recordCount: number, pageSize: number, pageNumber: number, startedAt: number): SandboxResponse {
  return jsonResponse(200, {
    data,
    meta: {
      record_count: recordCount,
      total_pages: Math.ceil(recordCount / pageSize),
      current_page: pageNumber,
      page_size: pageSize,
      query_time_ms: queryTimeMs(startedAt),
    },
  });
}

/** A path segment, percent-decoded; undefined when it is not valid percent-encoding. */
function segment(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The service as its 2026 edition describes it (shared/service-2026.md), on the same dataset as
 * the interface shape: the results list, one record, one version, the filters, the exchange
 * list and one exchange, and the interface's exchange resources (fees, rules, order types,
 * historical), all behind the results key header, with the 2026 error body. The control
 * routes under /__sandbox/ are the same as in the interface shape.
 */
export function createRouter2026(seed: number, dataset: ResultsDataset): Router {
  const index = new ResultsIndex(dataset, VOCABULARY_2026);
  const records = new Record2026Builder(dataset);
  const control = new ControlRoute(dataset, VOCABULARY_2026);

  function list(params: URLSearchParams, licence: Licence, startedAt: number): SandboxResponse {
    const parsed = parseResultsQuery(params, licence.venues, VOCABULARY_2026);
    if ('issues' in parsed) return invalid(parsed.issues, startedAt);
    const { search, includes } = parsed;
    const slice = index.slice(search);
    const data = slice.indexes.map((at) => records.build(at, includes));
    return page(data, slice.totalRecords, search.pageSize, search.pageNumber, startedAt);
  }

  /** Whether the record at `at` is one the key may see. */
  function visible(at: number, licence: Licence): boolean {
    return isLicensedFor(licence, dataset.versionVenue[dataset.recordVersion[at]!]!);
  }

  function oneRecord(recordId: string, params: URLSearchParams, licence: Licence, startedAt: number): SandboxResponse {
    const reader = new QueryReader(params);
    const includes = readIncludes(reader);
    if (reader.issues.length > 0) return invalid(reader.issues, startedAt);
    const at = records.indexOfId(recordId);
    // A record of an exchange the key does not cover is as absent as in the results list.
    if (at === undefined || !visible(at, licence)) return errorResponse(404, 'NOT_FOUND', 'Fee schedule result not found.', startedAt);
    return jsonResponse(200, { data: records.build(at, includes), meta: { record_count: 1, query_time_ms: queryTimeMs(startedAt) } });
  }

  function oneVersion(versionId: string, params: URLSearchParams, licence: Licence, startedAt: number): SandboxResponse {
    const reader = new QueryReader(params);
    const { pageSize, pageNumber } = readPage(reader);
    const includes = readIncludes(reader);
    if (reader.issues.length > 0) return invalid(reader.issues, startedAt);
    const v = dataset.versionNumberOf(versionId);
    const start = v === undefined ? 0 : dataset.versionStart[v]!;
    const end = v === undefined ? 0 : dataset.versionStart[v + 1]!;
    if (v === undefined || start === end || dataset.versionWithdrawn[v] === 1 || !isLicensedFor(licence, dataset.versionVenue[v]!)) {
      return errorResponse(404, 'NOT_FOUND', 'Version not found.', startedAt);
    }
    // A version's records in the order they were created, as the list's default order reads backwards.
    const first = Math.min(start + pageSize * pageNumber, end);
    const data: FeeScheduleResult2026[] = [];
    for (let at = first; at < Math.min(first + pageSize, end); at++) data.push(records.build(at, includes));
    return page(data, end - start, pageSize, pageNumber, startedAt);
  }

  function filters(params: URLSearchParams, licence: Licence, startedAt: number): SandboxResponse {
    const facets = facetsOf(dataset, visibleForFilters(licence, params, VOCABULARY_2026));
    const exchangeNames = VOCABULARY_2026.exchangeIds.filter((_, venueIndex) => facets.venues[venueIndex] === 1);
    return jsonResponse(200, {
      data: { exchange_names: exchangeNames, ...facetValues(facets, VOCABULARY_2026) },
      meta: { record_count: facets.records, query_time_ms: queryTimeMs(startedAt) },
    });
  }

  function oneExchange(venueIndex: number, startedAt: number): SandboxResponse {
    const facets = facetsOf(dataset, (candidate) => candidate === venueIndex);
    const values = facetValues(facets, VOCABULARY_2026);
    const day = (micros: number) => (Number.isNaN(micros) ? null : formatDate(Math.floor(micros / 1000)));
    return jsonResponse(200, {
      data: {
        name: VOCABULARY_2026.exchangeIds[venueIndex]!,
        display_name: venueAt(venueIndex).name,
        date_range: { earliest: day(facets.firstScrapedMicros), latest: day(facets.lastScrapedMicros) },
        fee_types: values.fee_types,
        fee_categories: values.fee_categories,
        actions: values.fee_actions,
        participants: values.fee_participants,
        symbol_classifications: values.fee_symbol_classifications,
        symbol_types: values.fee_symbol_types,
        trade_types: values.fee_trade_types,
      },
      meta: { query_time_ms: queryTimeMs(startedAt) },
    });
  }

  /** /exchanges/{name} and /exchanges/{name}/{resource}: the exchange (404), the key's licence (403), the query (422). */
  function exchange(rest: string, params: URLSearchParams, licence: Licence, startedAt: number): SandboxResponse | undefined {
    const slash = rest.indexOf('/');
    const name = segment(slash < 0 ? rest : rest.slice(0, slash));
    const resource = slash < 0 ? undefined : RESOURCE_BY_PATH.get(rest.slice(slash + 1));
    if (name === undefined || name === '' || (slash >= 0 && resource === undefined)) return undefined;
    const venueIndex = venueIndexIn(VOCABULARY_2026, name);
    if (venueIndex === undefined) return errorResponse(404, 'NOT_FOUND', 'Exchange not found.', startedAt);
    if (!isLicensedFor(licence, venueIndex)) return errorResponse(403, 'FORBIDDEN', "You do not have access to this exchange's data.", startedAt);
    if (resource === undefined) return oneExchange(venueIndex, startedAt);
    const answer = exchangeResource(seed, venueIndex, name, resource, params);
    if ('issues' in answer) return invalid(answer.issues, startedAt);
    return jsonResponse(200, { ...answer.body, exchange: name });
  }

  /** The endpoint a path names, given the key's licence; undefined for a path the service does not have. */
  function endpoint(path: string, params: URLSearchParams, licence: Licence, startedAt: number): SandboxResponse | undefined {
    if (path === RESULTS_PATH || path === RESULTS_PREFIX) return list(params, licence, startedAt);
    if (path === AVAILABLE_FILTERS_PATH || path === `${AVAILABLE_FILTERS_PATH}/`) return filters(params, licence, startedAt);
    if (path === EXCHANGES_PREFIX || path === EXCHANGES_PREFIX.slice(0, -1)) return serveExchangeList(dataset, licence, VOCABULARY_2026, startedAt);
    if (path.startsWith(VERSIONS_PREFIX)) {
      const versionId = segment(path.slice(VERSIONS_PREFIX.length));
      return versionId && !versionId.includes('/') ? oneVersion(versionId, params, licence, startedAt) : undefined;
    }
    if (path.startsWith(RESULTS_PREFIX)) {
      const recordId = segment(path.slice(RESULTS_PREFIX.length));
      return recordId && !recordId.includes('/') ? oneRecord(recordId, params, licence, startedAt) : undefined;
    }
    if (path.startsWith(EXCHANGES_PREFIX)) return exchange(path.slice(EXCHANGES_PREFIX.length), params, licence, startedAt);
    return undefined;
  }

  return (request: IncomingMessage, startedAt: number) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (isControlPath(request.url)) return control.serve(request.method, url);
    if (request.method !== 'GET') {
      const answer = errorResponse(405, 'METHOD_NOT_ALLOWED', 'Method not allowed.', startedAt);
      return { ...answer, headers: { ...answer.headers, allow: 'GET' } };
    }
    const header = request.headers[RESULTS_KEY_HEADER];
    const licence = licenceOf(typeof header === 'string' ? header : undefined);
    // The key is checked first on every endpoint, as one API key guards them all in this edition.
    if (licence === undefined) return errorResponse(401, 'UNAUTHORIZED', 'Missing or invalid API key.', startedAt);
    return endpoint(url.pathname, url.searchParams, licence, startedAt) ?? errorResponse(404, 'NOT_FOUND', 'Not found.', startedAt);
  }
}
