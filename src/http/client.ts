import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from './undici.js';
import type { ResolvedSettings } from '../config/resolve.js';
import type { Deps } from '../deps.js';
import type { Logger } from '../io/log.js';
import type { ExchangeResource } from '../api/paths.js';
import { exchangePath, RATE_LIMIT_REMAINING_HEADER, RESULTS_KEY_HEADER, RESULTS_PATH } from '../api/paths.js';
import type { FeeScheduleResultsPage } from '../api/types.js';
import type { ResultsQuery } from '../api/filters.js';
import {
  abortReason,
  AuthError,
  HttpStatusError,
  MalformedResponseError,
  MktError,
  NotFoundError,
  RetriesExhaustedError,
  UsageError,
} from '../errors.js';
import { VERSION } from '../version.js';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy, serverDelayMs } from './retry.js';
import { type RawResponse, sendOnce } from './send.js';
import { RateGate } from './rate-gate.js';
import { checkBaseUrl } from './base-url.js';
import { toResultsSearchParams } from './results-query.js';
import { describeErrorBody } from './error-body.js';
import { bodyText } from './body-text.js';

export interface ClientRuntime {
  log: Logger;
  /** Allow plain http to a host that is not loopback (--insecure). */
  insecure?: boolean;
  /** Cap on request starts per second (--max-rps). */
  maxRequestsPerSecond?: number;
  signal: AbortSignal;
  deps: Pick<Deps, 'now'>;
}

/** The service's endpoints, over one keep-alive pool, with auth, retries and typed errors. */
export interface ServiceClient {
  /** GET /api/v1/exchanges/{exchange}/{resource}: the body as the service sent it. */
  fetchExchangeResource(exchange: string, resource: ExchangeResource, query?: Record<string, string>): Promise<unknown>;
  /**
   * GET /api/v1/fee-schedule-results: one page, and the body it was parsed from. With
   * `byteStrings`, the page's strings may be byte strings (see BodyText); the answer says.
   */
  fetchResultsPage(query: ResultsQuery, options?: { byteStrings?: boolean }): Promise<ResultsPageResponse>;
  close(): Promise<void>;
}

export interface ResultsPageResponse {
  page: FeeScheduleResultsPage;
  /** The body as the service sent it: UTF-8 JSON. */
  body: Buffer;
  /** The page's strings are byte strings (see BodyText). */
  byteStrings: boolean;
}

/** A 2xx answer: the body parsed, and as sent. */
interface JsonResponse {
  json: unknown;
  body: Buffer;
  byteStrings: boolean;
}

type AuthScheme = 'bearer' | 'results-key';

const MAX_REDIRECTS = 5;

export function createServiceClient(settings: ResolvedSettings, runtime: ClientRuntime): ServiceClient {
  const baseUrl = checkBaseUrl(settings, runtime.insecure);
  const apiKey = settings.apiKey;
  if (!apiKey) {
    throw new AuthError(`no API key for profile "${settings.profile}"`, {
      hint: 'Run `mkt auth login`, or set MKT_API_KEY. To try mkt without a key, add --sandbox.',
    });
  }
  const { log } = runtime;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, retries: settings.retries };
  const timeoutMs = settings.timeoutSeconds * 1000;
  const agent = new Agent({ connections: 8, keepAliveTimeout: 10_000, pipelining: 1 });
  const gate = new RateGate({
    maxRequestsPerSecond: runtime.maxRequestsPerSecond,
    now: runtime.deps.now,
    signal: runtime.signal,
  });

  /** One request through the rate gate, which learns from every answer. */
  async function send(target: URL, scheme: AuthScheme): Promise<RawResponse> {
    await gate.acquire().catch(() => {
      throw abortReason(runtime.signal);
    });
    let response: RawResponse | undefined;
    try {
      response = await sendOnce(agent, {
        url: target,
        headers: { 'user-agent': `mkt/${VERSION}`, accept: 'application/json', ...authHeaders(scheme) },
        timeoutMs,
        signal: runtime.signal,
      });
      return response;
    } finally {
      const remaining = Number(headerValue(response?.headers[RATE_LIMIT_REMAINING_HEADER]) ?? Number.NaN);
      const retryAfter = headerValue(response?.headers['retry-after']);
      const throttled = response?.status === 429 || response?.status === 503;
      gate.release({
        remaining: Number.isFinite(remaining) ? remaining : undefined,
        retryAfterMs: throttled ? serverDelayMs(retryAfter, policy, runtime.deps.now()) : undefined,
      });
    }
  }

  function authHeaders(scheme: AuthScheme): Record<string, string> {
    return scheme === 'bearer'
      ? { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }
      : { [RESULTS_KEY_HEADER]: apiKey as string };
  }

  function logRequest(url: URL, scheme: AuthScheme, attempt: number): void {
    if (!log.isVerbose) return;
    const credential = scheme === 'bearer' ? 'Authorization: Bearer ***' : `${RESULTS_KEY_HEADER}: ***`;
    log.debug(`→ GET ${url.href}${attempt > 1 ? ` (try ${attempt})` : ''} [${credential}]`);
  }

  function logResponse(response: RawResponse, startedAt: number): void {
    if (!log.isVerbose) return;
    const remaining = response.headers[RATE_LIMIT_REMAINING_HEADER];
    const quota = remaining === undefined ? '' : `, ${RATE_LIMIT_REMAINING_HEADER}: ${String(remaining)}`;
    const elapsed = runtime.deps.now() - startedAt;
    log.debug(`← ${response.status} ${response.statusText} in ${elapsed} ms, ${response.body.length} bytes${quota}`);
  }

  /** One try: follows same-origin redirects, refuses to take the key to another origin. */
  async function tryOnce(url: URL, scheme: AuthScheme, attempt: number, byteStrings: boolean): Promise<JsonResponse> {
    let target = url;
    for (let redirects = 0; ; redirects++) {
      logRequest(target, scheme, attempt);
      const startedAt = runtime.deps.now();
      const response = await send(target, scheme);
      logResponse(response, startedAt);
      const location = headerValue(response.headers.location);
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, target);
        if (next.origin !== baseUrl.origin) {
          throw new MktError(`${target.host} redirected to ${next.origin}; mkt sends the key only to ${baseUrl.origin}`, {
            hint: 'If the service has moved, set the new base URL with --base-url or `mkt config set base_url URL`.',
          });
        }
        if (redirects >= MAX_REDIRECTS) throw new MktError(`too many redirects from ${target.host}`);
        target = next;
        continue;
      }
      return parseResponse(response, target, byteStrings);
    }
  }

  async function getJson(path: string, search: URLSearchParams, scheme: AuthScheme, byteStrings = false): Promise<JsonResponse> {
    const url = new URL(`${baseUrl.pathname.replace(/\/$/, '')}${path}`, baseUrl);
    url.search = search.toString();
    for (let attempt = 1; ; attempt++) {
      try {
        return await tryOnce(url, scheme, attempt, byteStrings);
      } catch (error) {
        if (!isRetryable(error, policy)) throw error;
        const failure = error as MktError;
        if (attempt > policy.retries) throw new RetriesExhaustedError(attempt, failure);
        const retryAfter = error instanceof HttpStatusError ? error.retryAfter : undefined;
        const delay = retryDelayMs(attempt, retryAfter, policy, runtime.deps.now());
        log.debug(`  ${failure.message}; retry ${attempt}/${policy.retries} in ${delay} ms`);
        await sleep(delay, undefined, { signal: runtime.signal }).catch(() => {
          throw abortReason(runtime.signal);
        });
      }
    }
  }

  function rejectedKey(): AuthError {
    const hint =
      settings.keySource === 'env'
        ? 'MKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.'
        : 'Run `mkt auth login` to store a valid key.';
    return new AuthError('the service rejected the API key (401)', { hint });
  }

  return {
    async fetchExchangeResource(exchange, resource, query = {}) {
      try {
        return (await getJson(exchangePath(exchange, resource), new URLSearchParams(query), 'bearer')).json;
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw error;
        if (error.status === 401) throw rejectedKey();
        if (error.status === 403) {
          throw new AuthError(`your key is not licensed for ${exchange} (403)`, {
            hint: 'Ask the data operator to add it to your licence, or use another profile with --profile.',
          });
        }
        if (error.status === 404) {
          const upper = exchange.toUpperCase();
          throw new NotFoundError(`unknown exchange ${exchange} (404)`, {
            hint:
              upper !== exchange
                ? `Exchange identifiers are upper case: did you mean ${upper}?`
                : 'Check the identifier (e.g. NYSE, CBOE, IEX); `mkt results` shows the exchanges your key reaches.',
          });
        }
        throw withServiceDetail(error);
      }
    },

    async fetchResultsPage(query, options = {}) {
      let response: JsonResponse;
      try {
        response = await getJson(RESULTS_PATH, toResultsSearchParams(query), 'results-key', options.byteStrings);
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw error;
        if (error.status === 401) throw rejectedKey();
        if (error.status === 403) throw new AuthError('your key is not licensed for these results (403)');
        throw withServiceDetail(error);
      }
      return { page: checkResultsPage(response.json, baseUrl.host), body: response.body, byteStrings: response.byteStrings };
    },

    close: () => agent.close(),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A 2xx body is JSON or the try failed; other statuses become HttpStatusError. Only a 2xx body
 * may be read as byte strings: an error body's text is shown to people.
 */
function parseResponse(response: RawResponse, url: URL, byteStrings: boolean): JsonResponse {
  const ok = response.status >= 200 && response.status < 300;
  const text = bodyText(response.body, byteStrings && ok);
  let body: unknown = text.text;
  let isJson = false;
  try {
    body = JSON.parse(body as string);
    isJson = true;
  } catch {
    // kept as text: error pages are often HTML
  }
  if (ok) {
    if (!isJson) {
      throw new MalformedResponseError(`${url.host} answered ${response.status} with a body that is not JSON (or is cut short)`);
    }
    return { json: body, body: response.body, byteStrings: text.byteStrings };
  }
  throw new HttpStatusError(response.status, response.statusText, url.href, body, {
    retryAfter: headerValue(response.headers['retry-after']),
  });
}

/** 422s and other rejections: say what the service said, in one line. */
function withServiceDetail(error: HttpStatusError): MktError {
  const detail = describeErrorBody(error.body);
  if (error.status === 422 || error.status === 400) {
    return new UsageError(`the service rejected the request (${error.status})${detail ? `: ${detail}` : ''}`);
  }
  return detail
    ? new HttpStatusError(error.status, error.statusText, error.url, error.body, { hint: detail, retryAfter: error.retryAfter })
    : error;
}

function checkResultsPage(body: unknown, host: string): FeeScheduleResultsPage {
  const page = body as Partial<FeeScheduleResultsPage> | null;
  if (
    typeof page !== 'object' || page === null || !Array.isArray(page.data)
    || typeof page.total_records !== 'number' || typeof page.total_pages !== 'number'
  ) {
    throw new MalformedResponseError(`${host} answered with a results body that lacks data, total_records or total_pages`);
  }
  return page as FeeScheduleResultsPage;
}
