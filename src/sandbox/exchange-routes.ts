import { EXCHANGE_RESOURCES, type ExchangeResource } from '../api/paths.js';
import type { HistoricalFeeSchedules } from '../api/types.js';
import { exchangeOrderTypes, exchangeRules, feeScheduleHistory, historicalFeeSchedules } from './exchange-data.js';
import { isLicensedFor, licenceOf } from './keys.js';
import { detailResponse, jsonResponse, type SandboxResponse, validationResponse } from './responses.js';
import { QueryReader, type ValidationIssue } from './validation.js';
import { venueIndexOf } from './venues.js';

/** The exchange resources by their path after the exchange, as paths.ts spells them. */
export const RESOURCE_BY_PATH = new Map<string, ExchangeResource>(
  Object.entries(EXCHANGE_RESOURCES).map(([resource, path]) => [path, resource as ExchangeResource]),
);

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
 * GET /api/v1/exchanges/{exchange}/{resource}. Checks run in this order: the key (401), the
 * exchange (404, exact-case identifier), the key's licence (403), then the query (422).
 */
export function serveExchange(
  seed: number,
  exchange: string,
  resource: ExchangeResource,
  params: URLSearchParams,
  token: string | undefined,
): SandboxResponse {
  const challenge = { 'www-authenticate': 'Bearer' };
  if (token === undefined) return detailResponse(401, 'Not authenticated: send the API key as Authorization: Bearer <key>.', challenge);
  const licence = licenceOf(token);
  if (licence === undefined) return detailResponse(401, 'Invalid API key.', challenge);
  const venueIndex = venueIndexOf(exchange);
  if (venueIndex === undefined) return detailResponse(404, `Exchange '${exchange}' not found.`);
  if (!isLicensedFor(licence, venueIndex)) {
    return detailResponse(403, `The API key is not licensed for exchange '${exchange}'.`);
  }
  const answer = exchangeResource(seed, venueIndex, exchange, resource, params);
  return 'issues' in answer ? validationResponse(answer.issues) : jsonResponse(200, answer.body);
}

/** The body of an exchange resource of a known venue, or the problems of its query (historical's dates). */
export function exchangeResource(
  seed: number,
  venueIndex: number,
  exchange: string,
  resource: ExchangeResource,
  params: URLSearchParams,
): { body: { exchange: string } } | { issues: ValidationIssue[] } {
  switch (resource) {
    case 'fees':
      return { body: feeScheduleHistory(seed, venueIndex).at(-1)! };
    case 'rules':
      return { body: exchangeRules(seed, venueIndex) };
    case 'orderTypes':
      return { body: exchangeOrderTypes(seed, venueIndex) };
    case 'historical': {
      const reader = new QueryReader(params);
      const startDay = reader.date('start_date');
      const endDay = reader.date('end_date');
      if (reader.issues.length > 0) return { issues: reader.issues };
      const body: HistoricalFeeSchedules = {
        exchange,
        start_date: reader.last('start_date') ?? null,
        end_date: reader.last('end_date') ?? null,
        fee_schedules: historicalFeeSchedules(feeScheduleHistory(seed, venueIndex), startDay, endDay),
      };
      return { body };
    }
  }
}
