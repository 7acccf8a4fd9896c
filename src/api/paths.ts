import { pathText } from '../http/base-url.js';

/**
 * Paths of the service, relative to the base URL, as segments: the transport appends each one,
 * percent-encoded, to the base URL's path (src/http/transport.ts).
 */
export type ServicePath = readonly string[];

const API: ServicePath = ['api', 'v1'];
export const RESULTS: ServicePath = [...API, 'fee-schedule-results'];
/** "Get Available Filters": its path is the service's public documentation's (shared/cli-contract.md, "Discovery"). */
export const AVAILABLE_FILTERS: ServicePath = [...RESULTS, 'filters'];

export const API_PREFIX = pathText(API);
export const RESULTS_PATH = pathText(RESULTS);
export const AVAILABLE_FILTERS_PATH = pathText(AVAILABLE_FILTERS);

/** The exchange list of the service's 2026 reference (shared/service-2026.md), written with its trailing slash. */
export const EXCHANGE_LIST: ServicePath = [...API, 'exchanges', ''];

/** The exchange endpoints, by the resource they return: the path after the exchange. */
export const EXCHANGE_RESOURCES = {
  fees: 'fees',
  rules: 'rules',
  orderTypes: 'order-types',
  historical: 'fees/historical',
} as const;
export type ExchangeResource = keyof typeof EXCHANGE_RESOURCES;

export function exchangePath(exchange: string, resource: ExchangeResource): ServicePath {
  return [...API, 'exchanges', exchange, ...EXCHANGE_RESOURCES[resource].split('/')];
}

/** Header that carries the key on the results endpoint (src/api/key-placement.ts, which the settings read without the paths). */
export { RESULTS_KEY_HEADER } from './key-placement.js';
/** Header that carries the remaining request quota on every response. */
export const RATE_LIMIT_REMAINING_HEADER = 'x-ratelimit-remaining';

/** One record of the 2026 reference: GET /api/v1/fee-schedule-results/{record_id}. */
export function resultPath(recordId: string): ServicePath {
  return [...RESULTS, recordId];
}

/** Every record of one version, paged as the results are: GET /api/v1/fee-schedule-results/versions/{version_id}. */
export function versionPath(versionId: string): ServicePath {
  return [...RESULTS, 'versions', versionId];
}
