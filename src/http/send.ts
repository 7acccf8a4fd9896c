import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { request } from './undici.js';
import { abortReason, NetworkError, TimeoutError } from '../errors.js';

export interface SendOptions {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The invocation's signal: aborted on Ctrl-C. */
  signal: AbortSignal;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  /** The whole body, as sent. */
  body: Buffer;
}

/** One GET, body read in full. Failures come back as MktErrors naming the host. */
export async function sendOnce(dispatcher: Dispatcher, options: SendOptions): Promise<RawResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout]);
  try {
    const response = await request(dispatcher, {
      origin: options.url.origin,
      path: `${options.url.pathname}${options.url.search}`,
      method: 'GET',
      headers: options.headers,
      signal,
    });
    const bytes = await response.body.bytes();
    const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return {
      status: response.statusCode,
      statusText: STATUS_CODES[response.statusCode] ?? '',
      headers: response.headers,
      body,
    };
  } catch (error) {
    if (options.signal.aborted) throw abortReason(options.signal);
    if (timeout.aborted) {
      throw new TimeoutError(`no complete answer from ${options.url.host} within ${options.timeoutMs / 1000} s`, {
        hint: 'Raise --timeout, or check the service is up.',
        cause: error,
      });
    }
    throw toNetworkError(error, options.url.host);
  }
}

const PERMANENT_CODES = new Set(['ENOTFOUND']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause === undefined ? undefined : errorCode(cause);
}

function isTlsError(code: string): boolean {
  return code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code);
}

/** Turns undici's and node's connection errors into one line naming the cause and the host. */
function toNetworkError(error: unknown, host: string): NetworkError {
  const code = errorCode(error) ?? 'UNKNOWN';
  const detail = error instanceof Error ? error.message : String(error);
  if (isTlsError(code)) {
    // OpenSSL's own messages read "…:SSL routines:<function>:<reason>:<file>:<line>:": keep the reason.
    const reason = /SSL routines:[^:]*:([^:]+):/.exec(detail)?.[1] ?? detail;
    return new NetworkError(`TLS error with ${host}: ${reason}`, {
      transient: false,
      hint: 'Check the base URL is https on an https port, and that its certificate is trusted.',
      cause: error,
    });
  }
  const messages: Record<string, string> = {
    ECONNREFUSED: `connection refused by ${host}`,
    ENOTFOUND: `cannot resolve host ${host}`,
    EAI_AGAIN: `cannot resolve host ${host} (DNS lookup timed out)`,
    ECONNRESET: `connection to ${host} was reset`,
    EPIPE: `connection to ${host} was closed while sending`,
    UND_ERR_SOCKET: `connection to ${host} was cut mid-response`,
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: `response from ${host} was cut short`,
    UND_ERR_CONNECT_TIMEOUT: `could not connect to ${host} in time`,
    UND_ERR_HEADERS_TIMEOUT: `no response headers from ${host} in time`,
    UND_ERR_BODY_TIMEOUT: `response body from ${host} stalled`,
  };
  const message = messages[code] ?? `request to ${host} failed: ${detail}`;
  return new NetworkError(message, { transient: !PERMANENT_CODES.has(code), cause: error });
}
