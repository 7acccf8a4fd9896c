import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
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

/**
 * One GET, body read in full. Failures come back as MktErrors naming the host.
 *
 * Through undici's dispatch handler rather than its request() API, which wraps every answer in
 * a Readable stream and an async resource, and through one timer rather than two AbortSignals:
 * about 60 ms of a 300-page walk (docs/performance.md).
 */
export function sendOnce(dispatcher: Dispatcher, options: SendOptions): Promise<RawResponse> {
  const { url, signal, timeoutMs } = options;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let stopped: Error | undefined;
    let timedOut = false;
    let answer: Omit<RawResponse, 'body'> | undefined;
    let chunks: Buffer[] = [];
    const stop = (reason: Error) => {
      stopped ??= reason;
      controller?.abort(reason);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => stop(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    dispatcher.dispatch(
      { origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers: options.headers },
      {
        onRequestStart(started) {
          controller = started;
          if (stopped) started.abort(stopped);
        },
        onResponseStart(_controller, status, headers) {
          answer = { status, statusText: STATUS_CODES[status] ?? '', headers };
          chunks = [];
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          settle();
          const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
          resolve({ ...(answer as Omit<RawResponse, 'body'>), body });
        },
        onResponseError(_controller, error) {
          settle();
          if (signal.aborted) reject(abortReason(signal));
          else if (timedOut) {
            reject(
              new TimeoutError(`no complete answer from ${url.host} within ${timeoutMs / 1000} s`, {
                hint: 'Raise --timeout, or check the service is up.',
                cause: error,
              }),
            );
          } else reject(toNetworkError(error, url.host));
        },
      },
    );
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
const isTlsError = (code: string): boolean => code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || isCertificateError(code);

/** Turns undici's and node's connection errors into one line naming the cause and the host. */
function toNetworkError(error: unknown, host: string): NetworkError {
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
        ? 'Check that the certificate is the service\'s; if a private CA signed it, set NODE_EXTRA_CA_CERTS to the CA\'s file.'
        : 'Check the base URL is https on an https port, and that its certificate is trusted.',
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
