/**
 * The exit codes `mkt` promises (shared/cli-contract.md):
 *   0   success (zero records is a success)
 *   1   the service or the network failed after retries, or anything unexpected
 *   2   usage: unknown flag, bad value, bad date, page size out of 1–100; nothing is sent
 *   3   authentication or licence: no key, key rejected (401), exchange not licensed (403)
 *   4   not found: unknown exchange (404)
 *   10  changes found: only `sync --exit-code` (and `diff --exit-code`); 0 then means nothing changed
 *   130 interrupted (Ctrl-C); no partial output file is left behind
 * Only src/main.ts turns errors into these codes.
 */
export const EXIT_CODES = {
  success: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  changes: 10,
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

export interface MktErrorOptions {
  /** A second line telling the user what to do next. */
  hint?: string;
  cause?: unknown;
  /** The HTTP status of the service's answer that this error reports, if it comes from one. */
  httpStatus?: number;
}

/** Base of every error `mkt` reports on purpose. Its message is one line, safe to print. */
export class MktError extends Error {
  readonly hint: string | undefined;
  readonly httpStatus: number | undefined;
  constructor(message: string, options: MktErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
    this.httpStatus = options.httpStatus;
  }
}

/** Bad flags or values; nothing was sent. */
export class UsageError extends MktError {}

/** No key, key rejected, or not licensed for the resource. */
export class AuthError extends MktError {}

/** The key is good, but not licensed for this resource (403): other resources may still answer. */
export class NotLicensedError extends AuthError {}

/** The resource (an exchange) does not exist. */
export class NotFoundError extends MktError {}

/**
 * The base URL answers, but not as the service: a 404 that does not come from the service's own
 * routes. Exit 1, not 4, so that an alert on "unknown exchange" is not sent chasing a typo in a URL.
 */
export class NotTheServiceError extends MktError {}

/** Ctrl-C or SIGTERM. */
export class InterruptedError extends MktError {
  constructor(
    readonly signal: NodeJS.Signals = 'SIGINT',
    options: MktErrorOptions = {},
  ) {
    super(`interrupted by ${signal}`, options);
  }
}

/** Why an aborted signal stopped the work: its MktError reason, or a plain interruption. */
export function abortReason(signal: AbortSignal): MktError {
  return signal.reason instanceof MktError ? signal.reason : new InterruptedError();
}

/** The service answered with a status the command cannot use. Carries the parsed body, if any. */
export class HttpStatusError extends MktError {
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The URL without credentials. */
    readonly url: string,
    readonly body: unknown,
    /** `detail`: what the server said, already cleaned by serverText (src/api/error-body.ts). */
    options: MktErrorOptions & { retryAfter?: string; detail?: string } = {},
  ) {
    const what = `${status}${statusText ? ` ${statusText}` : ''} from ${new URL(url).host}`;
    super(options.detail ? `${what}: ${options.detail}` : what, { ...options, httpStatus: status });
    this.retryAfter = options.retryAfter;
  }

  /** The response's Retry-After header, if any. */
  readonly retryAfter: string | undefined;
}

/** The connection failed: refused, reset, cut mid-body, DNS, TLS. */
export class NetworkError extends MktError {
  /** Whether another try may succeed: a reset may, a bad certificate will not. */
  readonly transient: boolean;
  constructor(message: string, options: MktErrorOptions & { transient: boolean }) {
    super(message, options);
    this.transient = options.transient;
  }
}

/** No complete answer within the timeout. */
export class TimeoutError extends MktError {}

/** The service answered 2xx with a body that is cut short or not the JSON expected. */
export class MalformedResponseError extends MktError {}

/** Every retry failed; the message names the last cause. */
export class RetriesExhaustedError extends MktError {
  constructor(
    readonly attempts: number,
    readonly lastError: MktError,
  ) {
    super(`gave up after ${attempts} ${attempts === 1 ? 'try' : 'tries'}: ${lastError.message}`, {
      hint: lastError.hint,
      cause: lastError,
      httpStatus: lastError.httpStatus,
    });
  }
}

/**
 * A request that --dry-run printed instead of sending: it ends the command, which exits 0. Not
 * a MktError, so that no fallback for a failed request goes on past it as if the service had
 * answered. `then` holds shell comments on what the answer would lead to.
 */
export class RequestNotSent extends Error {
  readonly then: string[] = [];

  constructor() {
    super('the request was not sent (--dry-run)');
  }
}

/** The answer, or, when the request was not sent (--dry-run), `comment` on what would follow it. */
export async function thenSays<T>(answer: Promise<T>, comment: string): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof RequestNotSent) error.then.push(`# ${comment}`);
    throw error;
  }
}
