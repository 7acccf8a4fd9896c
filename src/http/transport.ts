import { type IncomingHttpHeaders, STATUS_CODES } from 'node:http';
import {
  abortReason,
  HttpStatusError,
  MalformedResponseError,
  MktError,
  NetworkError,
  RetriesExhaustedError,
  TimeoutError,
} from '../core/errors.js';
import { realSleep, type Sleep, type Wait, waitFor, type WaitObserver } from '../core/waits.js';
import { serverText } from './server-text.js';
import type { Logger } from '../io/log.js';
import { openRoute } from './proxy.js';
import { serviceUrl } from './base-url.js';
import { budgetReport, RateGate } from './rate-gate.js';
import { isRetryable, parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry.js';

/*
 * The transport: GET requests to the service over one keep-alive pool, through the rate gate,
 * retried by policy, following redirects that stay on the service's origin. It knows nothing of
 * the service's endpoints: src/api/client.ts does.
 *
 * Built on node:http and node:https rather than undici: loading undici's package entry was a
 * large share of every command that talks to the service, and on Node 20 its WebAssembly HTTP
 * parser held the process open while V8 optimised it, where Node's own client parses natively
 * and loads at once.
 */

/** A header that carries the key: sent to the service's origin only, and never logged. */
export interface Credential {
  name: string;
  value: string;
  /** How --verbose shows it: `Authorization: Bearer ***`. */
  redacted: string;
}

export interface TransportOptions {
  /** The service: paths are appended to its path, and no request with the key leaves its origin. */
  baseUrl: URL;
  userAgent: string;
  /** For a complete answer to one try. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** Cap on request starts per second (--max-rps). */
  maxRequestsPerSecond?: number;
  /** Aborted on Ctrl-C: what is in flight stops, and the abort's reason is thrown. */
  signal: AbortSignal;
  now: () => number;
  /** How the rate gate and the retries wait, on the clock of `now`. @default realSleep */
  sleep?: Sleep;
  /** Told of every wait (the rate limit, Retry-After, back-off), for the progress line. */
  waits?: WaitObserver;
  log: Pick<Logger, 'debug' | 'isVerbose'>;
  /** Where HTTPS_PROXY, NO_PROXY and the like are read (src/http/proxy.ts); undefined for no proxy, as to the in-process sandbox. */
  proxyEnv?: Readonly<Record<string, string | undefined>>;
}

export interface Transport {
  /** The service's host, for messages. */
  readonly host: string;
  /** The service's origin, `https://host[:port]`: the only one the key is sent to. */
  readonly origin: string;
  /**
   * GET `path`, its segments under the base URL's path, with `query`: the parsed body of a 2xx
   * answer. Other statuses are HttpStatusError, after retries where the policy retries them.
   */
  getJson(path: readonly string[], query: URLSearchParams, credential: Credential, headers?: Record<string, string>): Promise<unknown>;
  close(): Promise<void>;
}

interface RawResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const MAX_REDIRECTS = 5;
/** Connections kept to the service: the walk has a few pages in flight. */
const MAX_SOCKETS = 8;
/** The largest body read: a page is a few hundred KiB, and a server that sends without end must not fill memory. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The headers of every request, before the key's: `headers` are the endpoint's own. */
export const requestHeaders = (userAgent: string, headers: Readonly<Record<string, string>>): Record<string, string> =>
  ({ 'user-agent': userAgent, accept: 'application/json', ...headers });

const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

export async function createTransport(options: TransportOptions): Promise<Transport> {
  const { baseUrl, signal, log, now, retry, waits } = options;
  const sleep = options.sleep ?? realSleep;
  const route = await openRoute({ baseUrl, env: options.proxyEnv, maxSockets: MAX_SOCKETS, signal });
  if (route.proxy) log.debug(`via proxy ${route.proxy.display} from ${route.proxy.variable}`);
  const gate = new RateGate({ maxRequestsPerSecond: options.maxRequestsPerSecond, now, sleep, signal, waits });

  /** One request, its body read in full. Failures are MktErrors naming the host. */
  function sendOnce(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      let timedOut = false;
      let responded = false;
      const request = route.get(url, headers);
      // Failed here rather than on the request's 'error': a request still waiting for its
      // connection (a tunnel through a proxy) emits nothing when destroyed.
      const stop = (): void => {
        request.destroy();
        fail(undefined);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, options.timeoutMs);
      signal.addEventListener('abort', stop, { once: true });
      const settle = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
      };
      const fail = (error: unknown): void => {
        settle();
        if (signal.aborted) reject(abortReason(signal));
        else if (timedOut) {
          reject(
            new TimeoutError(`no complete answer from ${url.host} within ${options.timeoutMs / 1000} s`, {
              hint: 'Raise --timeout, or check the service is up.',
              cause: error,
            }),
          );
        } else reject(toNetworkError(error, url.host, responded));
      };
      request.on('error', fail);
      request.on('response', (response) => {
        responded = true;
        // Too large is final: another try would be as large.
        const tooLarge = (): void => {
          settle();
          reject(new MktError(`${url.host} sent a response over the ${MAX_BODY_BYTES / 1024 / 1024} MiB limit`));
          request.destroy();
        };
        if (Number(headerValue(response.headers['content-length'])) > MAX_BODY_BYTES) return tooLarge();
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_BODY_BYTES) tooLarge();
          else chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('end', () => {
          settle();
          const status = response.statusCode ?? 0;
          // The status's standard text, not the server's: that is untrusted text.
          resolve({ status, statusText: STATUS_CODES[status] ?? '', headers: response.headers, body: Buffer.concat(chunks) });
        });
      });
      request.end();
    });
  }

  /** One request through the rate gate, which learns from every answer; logged once it leaves the gate. */
  async function send(url: URL, credential: Credential, headers: Record<string, string>, attempt: number): Promise<RawResponse> {
    await gate.acquire().catch(() => {
      throw abortReason(signal);
    });
    logRequest(url, credential, attempt);
    const startedAt = now();
    let response: RawResponse | undefined;
    try {
      response = await sendOnce(url, { ...headers, [credential.name]: credential.value });
      // The bare key, also for `Bearer KEY`: a server may echo either.
      logResponse(response, startedAt, credential.value.replace(/^Bearer /, ''));
      return response;
    } finally {
      gate.release(response ? budgetReport(response.status, response.headers, now(), retry.maxDelayMs) : {});
    }
  }

  function logRequest(url: URL, credential: Credential, attempt: number): void {
    if (log.isVerbose) log.debug(`→ GET ${url.href}${attempt > 1 ? ` (try ${attempt})` : ''} [${credential.redacted}]`);
  }

  /** Headers and bodies are the server's text: serverText takes the key and control characters out. */
  function logResponse(response: RawResponse, startedAt: number, key: string): void {
    if (!log.isVerbose) return;
    const remaining = response.headers['x-ratelimit-remaining'];
    const quota = remaining === undefined ? '' : `, x-ratelimit-remaining: ${serverText(String(remaining), key)}`;
    log.debug(`← ${response.status} ${response.statusText} in ${now() - startedAt} ms, ${response.body.length} bytes${quota}`);
    // An error's body says why; a 2xx body is data, and may be megabytes.
    if (response.status >= 400 && response.body.length > 0) log.debug(`  body: ${serverText(response.body.subarray(0, 8192).toString('utf8'), key)}`);
  }

  /** One try: follows redirects within the origin, refuses to take the key to another. */
  async function tryOnce(url: URL, credential: Credential, headers: Record<string, string>, attempt: number): Promise<unknown> {
    let target = url;
    for (let redirects = 0; ; redirects++) {
      const response = await send(target, credential, headers, attempt);
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
      return parseResponse(response, target);
    }
  }

  /** The wait before try `attempt + 1`: a 429's (or another status's) Retry-After, else back-off. */
  function retryWait(failure: MktError, retryAfter: string | undefined, attempt: number, delay: number): Wait {
    const wait = { ms: delay, until: now() + delay };
    const asked = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, now());
    if (asked === undefined) return { ...wait, cause: 'retry', attempt: { number: attempt + 1, of: retry.retries + 1 } };
    const cause = failure instanceof HttpStatusError && failure.status === 429 ? 'rate-limit' : 'unavailable';
    return { ...wait, cause, ...(asked > retry.maxDelayMs ? { capped: true } : {}) };
  }

  return {
    host: baseUrl.host,
    origin: baseUrl.origin,
    async getJson(path, query, credential, headers = {}) {
      const url = serviceUrl(baseUrl, path, query);
      const allHeaders = requestHeaders(options.userAgent, headers);
      for (let attempt = 1; ; attempt++) {
        let body: unknown;
        try {
          body = await tryOnce(url, credential, allHeaders, attempt);
        } catch (error) {
          if (!isRetryable(error, retry)) throw error;
          const failure = error as MktError;
          if (attempt > retry.retries) throw new RetriesExhaustedError(attempt, failure);
          const retryAfter = error instanceof HttpStatusError ? error.retryAfter : undefined;
          const delay = retryDelayMs(attempt, retryAfter, retry, now());
          log.debug(`  ${failure.message}; retry ${attempt}/${retry.retries} in ${delay} ms`);
          await waitFor(retryWait(failure, retryAfter, attempt, delay), sleep, signal, waits).catch(() => {
            throw abortReason(signal);
          });
          continue;
        }
        // Unlike a cut body, a body nested this deep is what the server means to send: another try would get it again.
        if (nestsDeeperThan(body, MAX_NESTING)) {
          throw new MalformedResponseError(`${url.host} sent a malformed answer: arrays and objects nest more than ${MAX_NESTING} levels deep`);
        }
        return body;
      }
    },
    async close() {
      route.close();
    },
  };
}

/** Deeper than any answer in the service's document, and far within what recursion over a body (JSON.stringify, the output's columns) can take. */
const MAX_NESTING = 64;

/** Whether `value`'s arrays and objects nest more than `limit` levels deep, walked without recursion so that no depth overflows the stack. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: unknown[] = [value];
  const depths: number[] = [1];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    const depth = depths.pop() as number;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child !== 'object' || child === null) continue;
      pending.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

/**
 * A 2xx body is JSON or the try failed; other statuses become HttpStatusError, their body
 * parsed when it is JSON no deeper than MAX_NESTING, else kept as text.
 */
function parseResponse(response: RawResponse, url: URL): unknown {
  const ok = response.status >= 200 && response.status < 300;
  const text = response.body.toString('utf8').replace(/^\uFEFF/, '');
  let body: unknown = text;
  let isJson = false;
  try {
    body = JSON.parse(text);
    isJson = true;
  } catch {
    // kept as text: error pages are often HTML
  }
  if (ok) {
    if (!isJson) throw new MalformedResponseError(`${url.host} answered ${response.status} with a body that is not JSON (or is cut short)`);
    return body;
  }
  // An error body nested too deep is kept as text, unread.
  const tooDeep = isJson && nestsDeeperThan(body, MAX_NESTING);
  throw new HttpStatusError(response.status, response.statusText, url.href, tooDeep ? text : body, {
    retryAfter: headerValue(response.headers['retry-after']),
  });
}

const PERMANENT_CODES = new Set(['ENOTFOUND']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause === undefined ? undefined : errorCode(cause);
}

const isCertificateError = (code: string): boolean => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code);
/** EPROTO: OpenSSL failed the handshake, e.g. https to a port that speaks plain http. */
const isTlsError = (code: string): boolean =>
  code === 'EPROTO' || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || isCertificateError(code);

/** Node's connection errors as one line naming the cause and the host. */
function toNetworkError(error: unknown, host: string, responded: boolean): NetworkError {
  // A failure to reach the proxy names the proxy already (src/http/proxy.ts).
  if (error instanceof NetworkError) return error;
  const code = errorCode(error) ?? 'UNKNOWN';
  const detail = error instanceof Error ? error.message : String(error);
  if (isTlsError(code)) {
    // OpenSSL's own messages read "…:SSL routines:<function>:<reason>:<file>:<line>:": keep the reason.
    // Node 24 adds advice about its own flags to certificate errors ("; if the root CA is…");
    // the hint gives advice that holds on every Node.
    const reason = (/SSL routines:[^:]*:([^:]+):/.exec(detail)?.[1] ?? detail).replace(/; if the root CA .*/s, '');
    return new NetworkError(`TLS error with ${host}: ${reason}`, {
      transient: false,
      hint: isCertificateError(code)
        ? "Check that the certificate is the service's; if a private CA signed it, set NODE_EXTRA_CA_CERTS to the CA's file."
        : 'Check the base URL is https on an https port, and that its certificate is trusted.',
      cause: error,
    });
  }
  const messages: Record<string, string> = {
    ECONNREFUSED: `connection refused by ${host}`,
    ENOTFOUND: `cannot resolve host ${host}`,
    EAI_AGAIN: `cannot resolve host ${host} (DNS lookup timed out)`,
    ECONNRESET: responded ? `connection to ${host} was cut mid-response` : `connection to ${host} was reset`,
    EPIPE: `connection to ${host} was closed while sending`,
    ETIMEDOUT: `could not connect to ${host} in time`,
    HPE_INVALID_CONSTANT: `${host} answered with something that is not HTTP`,
  };
  const message = messages[code] ?? `request to ${host} failed: ${detail}`;
  return new NetworkError(message, { transient: !PERMANENT_CODES.has(code), cause: error });
}
