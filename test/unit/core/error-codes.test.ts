import { describe, expect, it } from 'vitest';
import { CommanderError } from 'commander';
import {
  AuthError,
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
} from '../../../src/core/errors.js';
import { describeFailure, ERROR_CODES } from '../../../src/core/error-codes.js';

const URL = 'http://127.0.0.1:9/api/v1/exchanges/NYSE/fees';
const status = (code: number, text = '') => new HttpStatusError(code, text, URL, undefined);

// Issue 40, point 2: each failure has one stable code, and each code one exit code.
describe('describeFailure', () => {
  it.each([
    ['a usage error', new UsageError('--page-size must be 1-100', { hint: 'Try 100.' }), { code: 'usage', exit_code: 2, retryable: false, hint: 'Try 100.' }],
    ['a commander error', new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), { code: 'usage', exit_code: 2, retryable: false }],
    ['no key or a rejected key', new AuthError('the service rejected the API key (401)', { httpStatus: 401 }), { code: 'auth', exit_code: 3, retryable: false, http_status: 401 }],
    ['an exchange not licensed', new NotLicensedError('not licensed for NYSE (403)', { httpStatus: 403 }), { code: 'forbidden', exit_code: 3, retryable: false, http_status: 403 }],
    ['an unknown exchange', new NotFoundError('unknown exchange NYS (404)', { httpStatus: 404 }), { code: 'not_found', exit_code: 4, retryable: false, http_status: 404 }],
    ['a 429 after every retry', new RetriesExhaustedError(5, status(429, 'Too Many Requests')), { code: 'rate_limited', exit_code: 1, retryable: true, http_status: 429 }],
    ['a 503 after every retry', new RetriesExhaustedError(5, status(503)), { code: 'server', exit_code: 1, retryable: true, http_status: 503 }],
    ['a 400 the client cannot use', status(400), { code: 'server', exit_code: 1, retryable: false, http_status: 400 }],
    ['a refused connection', new RetriesExhaustedError(5, new NetworkError('connection refused', { transient: true })), { code: 'network', exit_code: 1, retryable: true }],
    ['a bad certificate', new NetworkError('certificate has expired', { transient: false }), { code: 'network', exit_code: 1, retryable: false }],
    ['a timeout', new TimeoutError('no answer within 30 s'), { code: 'network', exit_code: 1, retryable: true }],
    ['a body that is not the JSON expected', new MalformedResponseError('the answer is not JSON'), { code: 'malformed_answer', exit_code: 1, retryable: false }],
    ['a base URL that is not the service', new NotTheServiceError('not the service', { httpStatus: 404 }), { code: 'malformed_answer', exit_code: 1, retryable: false, http_status: 404 }],
    ['Ctrl-C', new InterruptedError('SIGINT'), { code: 'interrupted', exit_code: 130, retryable: true, message: 'interrupted by SIGINT' }],
    ['a file mkt cannot write', new MktError('cannot write out.csv: permission denied (EACCES)'), { code: 'unexpected', exit_code: 1, retryable: false, hint: undefined }],
    ['a bug', new TypeError('x is undefined'), { code: 'unexpected', exit_code: 1, retryable: false, message: 'x is undefined', hint: undefined }],
  ])('%s', (_what, error, expected) => {
    const failure = describeFailure(error);
    expect(failure).toMatchObject({ http_status: undefined, ...expected });
    expect(failure.exit_code).toBe(ERROR_CODES[failure.code]);
  });

  it('covers every code in the table above', () => {
    expect(Object.keys(ERROR_CODES).sort()).toEqual(
      ['auth', 'forbidden', 'interrupted', 'malformed_answer', 'network', 'not_found', 'rate_limited', 'server', 'unexpected', 'usage'],
    );
  });

  it('keeps exit 0 for the help and the version, which commander ends by throwing', () => {
    expect(describeFailure(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)')).exit_code).toBe(0);
  });
});
