import {
  AuthError,
  EXIT_CODES,
  type ExitCode,
  HttpStatusError,
  InterruptedError,
  MalformedResponseError,
  MktError,
  NetworkError,
  NotFoundError,
  NotLicensedError,
  NotTheServiceError,
  RetriesExhaustedError,
  TimeoutError,
  UsageError,
} from './errors.js';

/**
 * The stable error codes of `--error-format json` and of the MCP server's tool errors
 * (shared/cli-contract.md, "Agents"), each with the one exit code it maps to. Agents branch on
 * these: a code is never renamed, and a new one is added only with its own exit code here.
 */
export const ERROR_CODES = {
  usage: EXIT_CODES.usage,
  auth: EXIT_CODES.auth,
  forbidden: EXIT_CODES.auth,
  not_found: EXIT_CODES.notFound,
  rate_limited: EXIT_CODES.failure,
  network: EXIT_CODES.failure,
  server: EXIT_CODES.failure,
  malformed_answer: EXIT_CODES.failure,
  interrupted: EXIT_CODES.interrupted,
  unexpected: EXIT_CODES.failure,
} as const satisfies Record<string, ExitCode>;
export type ErrorCode = keyof typeof ERROR_CODES;

/** How a failure is written on stderr: `--error-format`, else `MKT_ERROR_FORMAT`, else text. */
export const ERROR_FORMATS = ['text', 'json'] as const;
export type ErrorFormat = (typeof ERROR_FORMATS)[number];

/** A failure as an agent reads it: the JSON of `--error-format json`, less its `error` wrapper. */
export interface FailureDescription {
  code: ErrorCode;
  message: string;
  hint: string | undefined;
  exit_code: ExitCode;
  /** Only where the service answered. */
  http_status: number | undefined;
  /** Whether the same request, sent again later, may succeed. */
  retryable: boolean;
}

/** Commander's own errors carry `code` and `exitCode`; we only read them. */
export interface CommanderLikeError {
  code: string;
  exitCode: number;
  message: string;
}

export function isCommanderError(error: unknown): error is CommanderLikeError {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    && (error as { code: string }).code.startsWith('commander.');
}

/** Which code an error has, and whether trying again may help. */
function classify(error: unknown): { code: ErrorCode; retryable: boolean } {
  // The last try's cause says what kind of failure it was; the exit code stays that of a failure.
  const cause = error instanceof RetriesExhaustedError ? error.lastError : error;
  if (error instanceof RetriesExhaustedError && !(cause instanceof HttpStatusError || cause instanceof NetworkError
    || cause instanceof TimeoutError || cause instanceof MalformedResponseError)) {
    return { code: 'server', retryable: true };
  }
  if (cause instanceof UsageError || isCommanderError(cause)) return { code: 'usage', retryable: false };
  if (cause instanceof NotLicensedError) return { code: 'forbidden', retryable: false };
  if (cause instanceof AuthError) return { code: 'auth', retryable: false };
  if (cause instanceof NotFoundError) return { code: 'not_found', retryable: false };
  if (cause instanceof InterruptedError) return { code: 'interrupted', retryable: true };
  if (cause instanceof HttpStatusError) {
    if (cause.status === 429) return { code: 'rate_limited', retryable: true };
    return { code: 'server', retryable: cause.status >= 500 };
  }
  if (cause instanceof NetworkError) return { code: 'network', retryable: cause.transient };
  if (cause instanceof TimeoutError) return { code: 'network', retryable: true };
  // A base URL that answers, but not as the service, answers what mkt cannot read.
  if (cause instanceof MalformedResponseError || cause instanceof NotTheServiceError) return { code: 'malformed_answer', retryable: false };
  // The contract's codes end here: a file mkt cannot write or a broken config file is reported
  // on purpose, with its message and hint, but is as unexpected to an agent as a bug.
  return { code: 'unexpected', retryable: false };
}

/** The one place where errors become exit codes (src/main.ts) and stable codes (agents). */
export function describeFailure(error: unknown): FailureDescription {
  const { code, retryable } = classify(error);
  const exitCode = isCommanderError(error) && error.exitCode === 0 ? EXIT_CODES.success : ERROR_CODES[code];
  if (error instanceof MktError) {
    return { code, message: error.message, hint: error.hint, exit_code: exitCode, http_status: error.httpStatus, retryable };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code, message, hint: undefined, exit_code: exitCode, http_status: undefined, retryable };
}
