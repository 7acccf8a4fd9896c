import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { RESULTS_KEY_HEADER } from '../api/paths.js';
import type { ServiceShape } from '../api/record-id.js';
import { isControlPath } from './control-route.js';
import { bearerToken } from './exchange-routes.js';
import { FaultInjector, type FaultKind } from './faults.js';
import { SANDBOX_KEYS, SCOPED_EXCHANGES } from './keys.js';
import { FixedWindowRateLimiter, type RateLimitOptions, rateLimitHeaders, type RateVerdict } from './rate-limit.js';
import { detailResponse, errorResponse, HTML_503_BODY, type SandboxResponse } from './responses.js';
import { DEFAULT_RECORDS, DEFAULT_SEED, MAX_LATENCY_MS, MAX_PORT, MAX_RATE_WINDOW_SECONDS, MAX_RECORDS } from './limits.js';
import { ResultsDataset } from './results-dataset.js';
import { createRouter } from './router.js';
import { venueIndexOf } from './venues.js';
import { vocabularyOf } from './vocabulary.js';

export interface SandboxOptions {
  /** 0 picks a free port. @default 0 */
  port?: number;
  /** Number of fee schedule results, at most 5,000,000. @default 3000 */
  records?: number;
  /** Same seed → same data, byte for byte. @default 1 */
  seed?: number;
  /** Rate limit: `requests` per `seconds` window, per key. Off when absent. */
  rate?: RateLimitOptions;
  /** Make the first try of about a quarter of requests fail (503 HTML, cut 200, 429). @default false */
  faults?: boolean;
  /** Delay before every response, in milliseconds. @default 0 */
  latencyMs?: number;
  /**
   * Which edition of the service to speak: the interface document's, or the 2026 edition's
   * (docs/sandbox.md, "The 2026 shape"). The data is the same. @default 'interface'
   */
  shape?: ServiceShape;
  /**
   * The clock of the rate limit's windows: a test that hands the client a clock that skips its
   * waits hands the same one here, so that a window passes for both. @default Date.now
   */
  now?: () => number;
}

export interface RunningSandbox {
  /** e.g. http://127.0.0.1:43121 (no trailing slash) */
  url: string;
  keys: Record<keyof typeof SANDBOX_KEYS, string>;
  /** The exchanges the scoped key is licensed for: NYSE, NASDAQ and CBOE, in the shape's spelling. */
  scopedExchanges: readonly string[];
  shape: ServiceShape;
  close(): Promise<void>;
}

function assertWhole(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, not ${value}`);
  }
}

function validate(options: SandboxOptions): void {
  assertWhole('port', options.port ?? 0, 0, MAX_PORT);
  assertWhole('records', options.records ?? DEFAULT_RECORDS, 0, MAX_RECORDS);
  assertWhole('seed', options.seed ?? DEFAULT_SEED, 0, Number.MAX_SAFE_INTEGER);
  assertWhole('latencyMs', options.latencyMs ?? 0, 0, MAX_LATENCY_MS);
  if (options.rate) {
    assertWhole('rate.requests', options.rate.requests, 1, Number.MAX_SAFE_INTEGER);
    assertWhole('rate.seconds', options.rate.seconds, 1, MAX_RATE_WINDOW_SECONDS);
  }
}

/**
 * The key as presented in a scheme of the shape (the 2026 edition has the header alone); ''
 * when none (the rate limiter's anonymous bucket).
 */
function presentedKey(request: IncomingMessage, shape: ServiceShape): string {
  const header = request.headers[RESULTS_KEY_HEADER];
  const bearer = shape === 'interface' ? bearerToken(request.headers.authorization) : undefined;
  return (typeof header === 'string' ? header : undefined) ?? bearer ?? '';
}

/** What each shape answers when the server itself refuses or fails: the 2026 edition's 429 has no body. */
const SERVER_ANSWERS = {
  interface: {
    tooManyRequests: (retryAfter: string, message: string): SandboxResponse => detailResponse(429, message, { 'retry-after': retryAfter }),
    internalError: (): SandboxResponse => detailResponse(500, 'Internal Server Error'),
  },
  '2026': {
    tooManyRequests: (retryAfter: string): SandboxResponse => ({ status: 429, body: '', headers: { 'retry-after': retryAfter } }),
    internalError: (): SandboxResponse => errorResponse(500, 'INTERNAL_ERROR', 'Internal server error.', performance.now()),
  },
} as const satisfies Record<ServiceShape, unknown>;

/** Serves the whole service interface with generated data on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  validate(options);
  const seed = options.seed ?? DEFAULT_SEED;
  const latencyMs = options.latencyMs ?? 0;
  const shape = options.shape ?? 'interface';
  const now = options.now ?? Date.now;
  const answers = SERVER_ANSWERS[shape];
  const route = createRouter(seed, new ResultsDataset({ seed, records: options.records ?? DEFAULT_RECORDS }), shape);
  const limiter = new FixedWindowRateLimiter(options.rate);
  const faults = options.faults ? new FaultInjector(seed) : undefined;
  const closing = new AbortController();

  /**
   * `verdict` gives the budget headers; without one (a failure before it), Remaining is 0.
   * 'unmetered' (the control routes, which are not the service's) sends none.
   */
  function send(
    response: ServerResponse,
    answer: SandboxResponse,
    verdict: RateVerdict | 'unmetered' | undefined,
    fault?: FaultKind,
  ): void {
    if (response.destroyed) return;
    response.writeHead(answer.status, {
      ...answer.headers,
      ...(verdict === 'unmetered' ? {} : rateLimitHeaders(verdict ?? { allowed: true, remaining: 0 }, shape, now())),
      'content-length': String(Buffer.byteLength(answer.body)),
    });
    if (fault !== 'truncated-200') {
      response.end(answer.body);
      return;
    }
    // Declare the whole length, send half, then drop the connection.
    const body = Buffer.from(answer.body);
    response.write(body.subarray(0, Math.floor(body.length / 2)), () => response.socket?.destroy());
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (isControlPath(request.url)) {
      send(response, route(request, performance.now()), 'unmetered');
      return;
    }
    if (latencyMs > 0) {
      try {
        await sleep(latencyMs, undefined, { signal: closing.signal });
      } catch {
        return; // closing: the connection is being dropped anyway
      }
    }
    const startedAt = performance.now();
    const key = presentedKey(request, shape);
    const verdict = limiter.take(key, now());
    if (!verdict.allowed) {
      const retryAfter = String(verdict.retryAfterSeconds);
      const message = `Rate limit exceeded: ${options.rate?.requests} requests per ${options.rate?.seconds} seconds. Retry after ${retryAfter} seconds.`;
      send(response, answers.tooManyRequests(retryAfter, message), verdict);
      return;
    }
    const fault = faults?.next(request.method ?? 'GET', request.url ?? '/', key);
    if (fault === 'html-503') {
      send(response, { status: 503, body: HTML_503_BODY, headers: { 'content-type': 'text/html' } }, verdict);
    } else if (fault === 'retry-429') {
      send(response, answers.tooManyRequests('1', 'Too Many Requests'), verdict);
    } else {
      send(response, route(request, startedAt), verdict, fault);
    }
  }

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, answers.internalError(), undefined);
      else response.destroy(error instanceof Error ? error : undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A failed accept (EMFILE when out of file descriptors) is emitted here and, unheard, would
  // crash the sandbox. It costs one connection, and the server goes on listening; the sandbox
  // has no log to write it to, so it is ignored.
  server.on('error', () => {});
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    keys: { ...SANDBOX_KEYS },
    scopedExchanges: SCOPED_EXCHANGES.map((id) => vocabularyOf(shape).exchangeIds[venueIndexOf(id)!]!),
    shape,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
