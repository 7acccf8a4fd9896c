/** Paths of the service, relative to the base URL. */

export const API_PREFIX = '/api/v1';
export const RESULTS_PATH = `${API_PREFIX}/fee-schedule-results`;
/** "Get Available Filters": its path is the service's public documentation's (shared/cli-contract.md, "Discovery"). */
export const AVAILABLE_FILTERS_PATH = `${RESULTS_PATH}/filters`;

/** The exchange endpoints, by the resource they return. */
export const EXCHANGE_RESOURCES = {
  fees: 'fees',
  rules: 'rules',
  orderTypes: 'order-types',
  historical: 'fees/historical',
} as const;
export type ExchangeResource = keyof typeof EXCHANGE_RESOURCES;

export function exchangePath(exchange: string, resource: ExchangeResource): string {
  return `${API_PREFIX}/exchanges/${encodeURIComponent(exchange)}/${EXCHANGE_RESOURCES[resource]}`;
}

/** Header that carries the key on the results endpoint. */
export const RESULTS_KEY_HEADER = 'x-service-api-access-key';
/** Header that carries the remaining request quota on every response. */
export const RATE_LIMIT_REMAINING_HEADER = 'x-ratelimit-remaining';
