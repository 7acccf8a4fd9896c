import {
  AuthError,
  HttpStatusError,
  InterruptedError,
  type MktError,
  NotFoundError,
  NotLicensedError,
  NotTheServiceError,
  RetriesExhaustedError,
  UsageError,
} from '../core/errors.js';
import type { Credential, Transport } from '../http/transport.js';
import { isJsonObject } from '../core/json-object.js';
import { serverText } from '../http/server-text.js';
import { describeErrorBody, readErrorBody } from './error-body.js';
import type { ResultsQuery } from './filters.js';
import { DEFAULT_KEY_PLACEMENTS, type KeyPlacement, type KeyPlacements } from './key-placement.js';
import { AVAILABLE_FILTERS, EXCHANGE_LIST, EXCHANGE_RESOURCES, type ExchangeResource, exchangePath, RESULTS, resultPath, versionPath } from './paths.js';
import { RECORD_ID_FIELDS } from './record-id.js';
import { checkResultsPage, malformedAnswer, recordNamed } from './results-page.js';
import { type Includes, toResultsSearchParams } from './results-query.js';
import type { FeeScheduleResultsPage } from './types.js';

/** The service's endpoints, one method each, with its statuses turned into mkt's errors. */
export interface ServiceClient {
  /** The service's host, for messages. */
  readonly host: string;
  /** The service's origin, `https://host[:port]`: the only one the key is sent to. */
  readonly origin: string;
  /** GET /api/v1/exchanges/{exchange}/{resource}: the body as the service sent it. */
  fetchExchangeResource(exchange: string, resource: ExchangeResource, query?: Record<string, string>): Promise<unknown>;
  /** GET /api/v1/fee-schedule-results: one page, its envelope checked (src/api/results-page.ts). */
  fetchResultsPage(query: ResultsQuery): Promise<FeeScheduleResultsPage>;
  /**
   * GET /api/v1/fee-schedule-results/filters ("Get Available Filters"): the body as the service
   * sent it, or undefined when the service does not answer that operation (404, 405). With
   * exchanges named, the values of their records alone.
   */
  fetchAvailableFilters(exchangeNames?: readonly string[]): Promise<unknown>;
  /**
   * GET /api/v1/exchanges/, the exchange list of the service's 2026 reference: the body as the
   * service sent it, or undefined when the service does not answer it (401, 403, 404, 405).
   */
  fetchExchangeList(): Promise<unknown>;
  /**
   * GET /api/v1/fee-schedule-results/{record_id} of the 2026 reference: the record as the service
   * sent it, or undefined when the service does not offer the endpoint (a generic 404 or a 405).
   * The service's own NOT_FOUND for the id is a NotFoundError.
   */
  fetchResult(recordId: string, includes: Includes): Promise<object | undefined>;
  /**
   * GET /api/v1/fee-schedule-results/versions/{version_id} of the 2026 reference: one page of the
   * version's records, its envelope checked as a results page's, or undefined when the service
   * does not offer the endpoint. The service's own NOT_FOUND for the id is a NotFoundError.
   */
  fetchVersionPage(versionId: string, query: VersionQuery): Promise<FeeScheduleResultsPage | undefined>;
}

/** The query of the version endpoint: its paging, and the citations asked for. */
export type VersionQuery = Pick<ResultsQuery, 'page_size' | 'page_number'> & Includes;

export interface ClientAuth {
  apiKey: string;
  /** Where the key came from, for the hint when the service rejects it. */
  keySource: 'env' | 'stored' | 'sandbox' | 'none';
  /** Which header carries the key, per family of endpoints; the interface document's by default. */
  placements?: KeyPlacements;
}

/** The key where `placement` puts it, and how --verbose shows it. */
function credentialOf(placement: KeyPlacement, apiKey: string): Credential {
  if (placement === 'bearer') return { name: 'authorization', value: `Bearer ${apiKey}`, redacted: 'Authorization: Bearer ***' };
  const name = placement.slice('header:'.length);
  return { name, value: apiKey, redacted: `${name}: ***` };
}

/** What a JSON value is, in words, without quoting the server's text. */
const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/**
 * What makes an exchange endpoint's body unusable as a table, or undefined: the document shows
 * objects, and the historical body's shape is not shown, so an array of objects is taken too.
 */
function exchangeBodyProblem(body: unknown): string | undefined {
  if (!Array.isArray(body)) return kindOf(body) === 'an object' ? undefined : `the body is ${kindOf(body)}, not an object`;
  const index = body.findIndex((item) => kindOf(item) !== 'an object');
  return index === -1 ? undefined : `body[${index}] is ${kindOf(body[index])}, not an object`;
}

export function createServiceClient(transport: Transport, auth: ClientAuth): ServiceClient {
  const { apiKey } = auth;
  const placements = auth.placements ?? DEFAULT_KEY_PLACEMENTS;
  const exchangesKey = credentialOf(placements.exchanges, apiKey);
  const resultsKey = credentialOf(placements.results, apiKey);

  /** What a 2026 error body said, `: CODE: message`, to end a message with; nothing for other bodies, whose words mkt does not show there. */
  function said2026(error: HttpStatusError): string {
    const { code, text } = readErrorBody(error.body, apiKey);
    return code !== undefined && text !== undefined ? `: ${text}` : '';
  }

  /** A rejected key; `bearerOnExchanges` when the exchange endpoints sent it as a bearer token. */
  function rejectedKey(error: HttpStatusError, bearerOnExchanges = false): AuthError {
    const said = said2026(error);
    // A 2026 service takes the results endpoint's header everywhere: a bearer token is no key to it.
    const hint =
      said !== '' && bearerOnExchanges
        ? `The 2026 edition takes the key in one header on every endpoint: mkt config set exchanges_auth ${placements.results}`
        : auth.keySource === 'env'
          ? 'MKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.'
          : 'Run `mkt auth login` to store a valid key.';
    return new AuthError(`the service rejected the API key (${error.status})${said}`, { hint, httpStatus: error.status });
  }

  /** Whether the service says, by status or by its 2026 code, that the key is rejected (401) or not licensed (403). */
  const isRejected = (error: HttpStatusError) => error.status === 401 || readErrorBody(error.body).code === 'UNAUTHORIZED';
  const isUnlicensed = (error: HttpStatusError) => error.status === 403 || readErrorBody(error.body).code === 'FORBIDDEN';

  /** A 403, or a 2026 FORBIDDEN: the key is good, not for `what`. */
  function notLicensed(error: HttpStatusError, what: string, hint?: string): NotLicensedError {
    return new NotLicensedError(`your key is not licensed for ${what} (${error.status})${said2026(error)}`, { hint, httpStatus: error.status });
  }

  /**
   * 422s and other rejections: say what the service said, in one line, cleaned of the key and
   * control characters. A 2026 VALIDATION_ERROR is a usage error with its details, and a 2026
   * NOT_FOUND is exit 4, whatever the status that carries them.
   */
  function withServiceDetail(error: HttpStatusError): MktError {
    const { code, text: detail } = readErrorBody(error.body, apiKey);
    if (error.status === 422 || error.status === 400 || code === 'VALIDATION_ERROR') {
      return new UsageError(`the service rejected the request (${error.status})${detail ? `: ${detail}` : ''}`, { httpStatus: error.status });
    }
    if (code === 'NOT_FOUND') {
      return new NotFoundError(`the service found nothing at ${new URL(error.url).pathname} (${error.status})${detail ? `: ${detail}` : ''}`, { httpStatus: error.status });
    }
    return detail
      ? new HttpStatusError(error.status, error.statusText, error.url, error.body, { detail, hint: error.hint, retryAfter: error.retryAfter })
      : error;
  }

  /**
   * Whether the base URL is the service, asked after a 404 that names nothing: its exchange list
   * (the 2026 reference's) answers with a list. Such a service does not offer the endpoint that
   * answered 404; any other base URL is not the service.
   */
  async function listsExchanges(): Promise<boolean> {
    try {
      const body = await transport.getJson(EXCHANGE_LIST, new URLSearchParams(), resultsKey);
      return isJsonObject(body) && Array.isArray(body.data);
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      return false;
    }
  }

  /** A 5xx that outlived the retries: the one line also says what the server last said. */
  function exhausted(error: unknown): unknown {
    return error instanceof RetriesExhaustedError && error.lastError instanceof HttpStatusError
      ? new RetriesExhaustedError(error.attempts, withServiceDetail(error.lastError))
      : error;
  }

  return {
    host: transport.host,
    origin: transport.origin,

    async fetchExchangeResource(exchange, resource, query = {}) {
      let body: unknown;
      try {
        body = await transport.getJson(exchangePath(exchange, resource), new URLSearchParams(query), exchangesKey, {
          'content-type': 'application/json',
        });
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw exhausted(error);
        if (isRejected(error)) throw rejectedKey(error, placements.exchanges === 'bearer');
        if (isUnlicensed(error)) throw notLicensed(error, exchange, 'Ask the data operator to add it to your licence, or use another profile with --profile.');
        // The 2026 NOT_FOUND of an exchange endpoint says "Exchange not found." without naming it.
        if (readErrorBody(error.body).code === 'NOT_FOUND' || (error.status === 404 && namesExchange(error.body, exchange))) {
          throw new NotFoundError(`unknown exchange ${exchange} (${error.status})`, {
            hint: 'Check the identifier: `mkt exchanges` lists the exchanges your key reaches.',
            httpStatus: error.status,
          });
        }
        if (error.status === 404) {
          // An HTML page is no service's framework speaking: no need to ask the service.
          if (typeof error.body === 'object' && error.body !== null && (await listsExchanges())) {
            throw new NotFoundError(`the service does not offer ${EXCHANGE_RESOURCES[resource]} (GET ${new URL(error.url).pathname} answered 404)`, {
              hint: 'Its 2026 reference has no such endpoint: `mkt results --exchange-name EXCHANGE` lists the fees it has.',
              httpStatus: error.status,
            });
          }
          throw notTheService(error);
        }
        throw withServiceDetail(error);
      }
      const problem = exchangeBodyProblem(body);
      if (problem !== undefined) throw malformedAnswer(transport.host, problem);
      return body;
    },

    async fetchResultsPage(query) {
      let body: unknown;
      try {
        body = await transport.getJson(RESULTS, toResultsSearchParams(query), resultsKey);
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw exhausted(error);
        if (isRejected(error)) throw rejectedKey(error);
        if (isUnlicensed(error)) throw notLicensed(error, 'these results');
        // The results endpoint takes no identifier: a 404 there without the service's NOT_FOUND can only mean the wrong server.
        if (error.status === 404 && readErrorBody(error.body).code !== 'NOT_FOUND') throw notTheService(error);
        throw withServiceDetail(error);
      }
      return checkResultsPage(body, { host: transport.host, key: apiKey, page: query.page_number ?? 0 });
    },

    async fetchAvailableFilters(exchangeNames = []) {
      try {
        return await transport.getJson(AVAILABLE_FILTERS, new URLSearchParams(exchangeNames.map((name): [string, string] => ['exchange_name', name])), resultsKey);
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw exhausted(error);
        if (isRejected(error)) throw rejectedKey(error);
        if (isUnlicensed(error)) throw notLicensed(error, 'the available filters');
        // The document names the operation but not its path: a service without it is not an error.
        if (error.status === 404 || error.status === 405) return undefined;
        throw withServiceDetail(error);
      }
    },

    async fetchExchangeList() {
      try {
        // The 2026 reference sends the results endpoint's header on every endpoint.
        return await transport.getJson(EXCHANGE_LIST, new URLSearchParams(), resultsKey);
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw exhausted(error);
        // An older service has no list, and may refuse the path for its header before it finds none
        // (401): the caller asks another way, whose answer tells a rejected key.
        if ([401, 403, 404, 405].includes(error.status)) return undefined;
        throw withServiceDetail(error);
      }
    },

    async fetchResult(recordId, includes) {
      const body = await getByIdOrUndefined(resultPath(recordId), toResultsSearchParams(includes), `no ${recordNamed(recordId)}`);
      if (body === undefined) return undefined;
      const record = isJsonObject(body) ? body.data : undefined;
      if (!isJsonObject(record)) return malformedRecord(`data is ${kindOf(record)}, not a record`);
      if (!Object.values(RECORD_ID_FIELDS).some((name) => typeof record[name] === 'string' && record[name] !== '')) {
        return malformedRecord('data has no id or record_id');
      }
      return record;
    },

    async fetchVersionPage(versionId, query) {
      const body = await getByIdOrUndefined(versionPath(versionId), toResultsSearchParams(query), `no version ${serverText(versionId, apiKey)}`);
      return body === undefined ? undefined : checkResultsPage(body, { host: transport.host, key: apiKey, page: query.page_number ?? 0 });
    },
  };

  function malformedRecord(problem: string): never {
    throw malformedAnswer(transport.host, problem);
  }

  /**
   * An endpoint of the 2026 reference that takes an id: its body, or undefined when the service
   * does not offer the endpoint. A 404 is the service's own "no such id" only when its body says
   * NOT_FOUND in the 2026 shape; a service of the first shape answers a generic 404 to the path.
   */
  async function getByIdOrUndefined(path: readonly string[], query: URLSearchParams, notFound: string): Promise<unknown> {
    try {
      return await transport.getJson(path, query, resultsKey);
    } catch (error) {
      if (!(error instanceof HttpStatusError)) throw exhausted(error);
      if (isRejected(error)) throw rejectedKey(error);
      if (isUnlicensed(error)) throw notLicensed(error, 'these results');
      if (error.status === 404 && readErrorBody(error.body).code === 'NOT_FOUND') throw new NotFoundError(`${notFound} (404)`, { httpStatus: 404 });
      if (error.status === 404 || error.status === 405) return undefined;
      throw withServiceDetail(error);
    }
  }
}

/**
 * Whether a 404 is the service's own "no such exchange": a JSON body whose `detail` (or
 * `message`) names the exchange, as the service's `{"detail": "Exchange 'X' not found."}` does.
 * A wrong base URL answers with an HTML page or a generic `{"detail": "Not Found"}` instead.
 */
function namesExchange(body: unknown, exchange: string): boolean {
  const text = describeErrorBody(body);
  if (text === undefined) return false;
  // As a whole word, so that a generic "Not Found" does not name an exchange called N.
  const word = exchange.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9])${word}([^A-Za-z0-9]|$)`, 'i').test(text);
}

/** The base URL the user gave, recovered from the request URL: everything before mkt's /api/v1. */
function notTheService(error: HttpStatusError): NotTheServiceError {
  const url = new URL(error.url);
  url.search = '';
  const at = url.href.lastIndexOf('/api/v1/');
  const base = at > 0 ? url.href.slice(0, at) : url.origin;
  return new NotTheServiceError(`this does not look like the service at ${base}; check --base-url (mkt adds /api/v1)`, {
    hint: `It answered 404 to GET ${url.pathname}.`,
    httpStatus: error.status,
  });
}
