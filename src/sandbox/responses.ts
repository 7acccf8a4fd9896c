import type { IncomingMessage } from 'node:http';
import type { UnauthorizedBody } from '../api/types.js';
import type { ValidationIssue } from './validation.js';

/** What a route answers; the server adds the headers every response carries. */
export interface SandboxResponse {
  status: number;
  /** Sent as UTF-8. */
  body: string;
  headers?: Record<string, string>;
}

/** Answers a request that arrived at `startedAt` (performance.now()). */
export type Router = (request: IncomingMessage, startedAt: number) => SandboxResponse;

export const JSON_TYPE = 'application/json';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): SandboxResponse {
  return { status, body: JSON.stringify(body), headers: { 'content-type': JSON_TYPE, ...headers } };
}

/** FastAPI's shape for an HTTPException: `{"detail": "..."}`. */
export function detailResponse(status: number, detail: string, headers: Record<string, string> = {}): SandboxResponse {
  return jsonResponse(status, { detail }, headers);
}

/** FastAPI's shape for a request that fails validation. */
export function validationResponse(issues: readonly ValidationIssue[]): SandboxResponse {
  return jsonResponse(422, { detail: issues });
}

/** The service's time for a request in whole milliseconds, as the 2026 edition's meta gives it. */
export function queryTimeMs(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

/**
 * The 2026 edition's error body (shared/service-2026.md, "Errors"). `details` is FastAPI-like,
 * one `{loc, msg}` per problem, for the edition does not show its items.
 */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  startedAt: number,
  details?: readonly ValidationIssue[],
): SandboxResponse {
  const error = details === undefined ? { code, message } : { code, message, details: details.map(({ loc, msg }) => ({ loc, msg })) };
  return jsonResponse(status, { error, meta: { query_time_ms: queryTimeMs(startedAt) } });
}

/** The documented 401 body of the results endpoint. */
export const RESULTS_UNAUTHORIZED_BODY: UnauthorizedBody = {
  message: 'Not authorized: the API key is invalid or missing.',
  data: [],
  query_time: null,
  success: false,
  disable_jsonable_encoder: false,
  status_code: 401,
};

/** What a proxy in front of the service answers when the service is down (a --faults kind). */
export const HTML_503_BODY =
  '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n' +
  '<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
