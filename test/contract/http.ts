import { type ExchangeResource, exchangePath, RESULTS_KEY_HEADER, RESULTS_PATH } from '../../src/api/paths.js';
import { pathText } from '../../src/http/base-url.js';
import type { FeeScheduleResult, InterfaceResultsEnvelope } from '../../src/api/types.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type HttpAnswer, httpRequest } from '../helpers/http-request.js';

/** Query parameters; an array is sent as a repeated parameter. */
export type Query = Record<string, string | number | boolean | readonly string[]>;

export interface Answer<Body = unknown> extends HttpAnswer {
  body: Body;
}

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function answer<Body>(answered: Promise<HttpAnswer>): Promise<Answer<Body>> {
  const { status, headers, text } = await answered;
  const isJson = headers.get('content-type')?.startsWith('application/json') ?? false;
  return { status, headers, text, body: (isJson ? JSON.parse(text) : text) as Body };
}

export interface ResultsRequest {
  query?: Query;
  /** The x-service-api-access-key value; null sends no key. Default: the all-exchanges key. */
  key?: string | null;
  headers?: Record<string, string>;
  trailingSlash?: boolean;
  /** Another path under the results key's scheme (the available filters); default RESULTS_PATH. */
  path?: string;
}

export async function getResults<Body = InterfaceResultsEnvelope>(
  sandbox: RunningSandbox,
  request: ResultsRequest = {},
): Promise<Answer<Body>> {
  const key = request.key === undefined ? sandbox.keys.api_key : request.key;
  const headers: Record<string, string> = { ...request.headers };
  if (key !== null) headers[RESULTS_KEY_HEADER] = key;
  const base = request.path ?? RESULTS_PATH;
  const path = request.trailingSlash ? `${base}/` : base;
  return answer(httpRequest(`${sandbox.url}${path}${queryString(request.query ?? {})}`, { headers }));
}

export interface ExchangeRequest {
  query?: Query;
  /** The bearer token; null sends no Authorization header. Default: the all-exchanges key. */
  key?: string | null;
  headers?: Record<string, string>;
}

export async function getExchange<Body = unknown>(
  sandbox: RunningSandbox,
  exchange: string,
  resource: ExchangeResource,
  request: ExchangeRequest = {},
): Promise<Answer<Body>> {
  const key = request.key === undefined ? sandbox.keys.api_key : request.key;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...request.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return answer(httpRequest(`${sandbox.url}${pathText(exchangePath(exchange, resource))}${queryString(request.query ?? {})}`, { headers }));
}

/** Every record of a query, page after page, checking each page's status on the way. */
export async function getAllResults(
  sandbox: RunningSandbox,
  request: ResultsRequest = {},
): Promise<{ records: FeeScheduleResult[]; pages: InterfaceResultsEnvelope[] }> {
  const records: FeeScheduleResult[] = [];
  const pages: InterfaceResultsEnvelope[] = [];
  for (let page = 0; ; page++) {
    const { status, body } = await getResults(sandbox, {
      ...request,
      query: { page_size: 100, ...request.query, page_number: page },
    });
    if (status !== 200) throw new Error(`page ${page}: status ${status}`);
    pages.push(body);
    records.push(...(body.data as FeeScheduleResult[]));
    if (page + 1 >= body.total_pages) return { records, pages };
  }
}

/** What POST /__sandbox/versions answers for each version it added. */
export interface AddedVersionAnswer {
  version_id: string;
  exchange_name: string;
  fee_type: string;
  records: number;
  scraped_time: string;
  created_on: string;
  derived_from: string | null;
  changed: number;
  added: number;
  removed: number;
}

/** A call to the sandbox's control routes, e.g. control(sandbox, 'POST', 'versions', { groups: 2 }). */
export async function control<Body = unknown>(
  sandbox: Pick<RunningSandbox, 'url'>,
  method: 'GET' | 'POST' | 'DELETE' | 'PUT',
  path: string,
  query: Query = {},
): Promise<Answer<Body>> {
  return answer(httpRequest(`${sandbox.url}/__sandbox/${path}${queryString(query)}`, { method }));
}

/** One version GET /__sandbox/versions lists: each that has records, withdrawn ones marked. */
export interface ListedVersion {
  version_id: string;
  exchange_name: string;
  fee_type: string;
  records: number;
  scraped_time: string;
  latest: boolean;
  withdrawn: boolean;
}

/** The versions the control route lists, failing unless it answers 200. */
export async function listVersions(sandbox: Pick<RunningSandbox, 'url'>): Promise<ListedVersion[]> {
  const { status, text, body } = await control<{ versions: ListedVersion[] }>(sandbox, 'GET', 'versions');
  if (status !== 200) throw new Error(`GET /__sandbox/versions: status ${status}: ${text}`);
  return body.versions;
}

/** Adds versions through the control route, failing unless it answers 201. */
export async function addVersions(sandbox: Pick<RunningSandbox, 'url'>, query: Query = {}): Promise<AddedVersionAnswer[]> {
  const { status, text, body } = await control<{ versions: AddedVersionAnswer[] }>(sandbox, 'POST', 'versions', query);
  if (status !== 201) throw new Error(`POST /__sandbox/versions: status ${status}: ${text}`);
  return body.versions;
}
