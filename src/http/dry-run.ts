import { RequestNotSent } from '../core/errors.js';
import { serviceUrl } from './base-url.js';
import { curlCommand, KEY_VARIABLE } from './curl.js';
import { requestHeaders, type Transport } from './transport.js';

/**
 * What the client is given for the key under --dry-run: the real key never reaches a printed
 * line, and none is needed to print one.
 */
export const KEY_STAND_IN = `$${KEY_VARIABLE}`;

export interface DryRunOptions {
  baseUrl: URL;
  userAgent: string;
  /** The user's key, if any: written as the variable too, should it stand in a query. */
  apiKey?: string;
  /** Takes each printed line. */
  write: (line: string) => void;
}

/**
 * The transport of --dry-run: each request, as the real transport would send it, is printed as a
 * `curl` line, and then fails with RequestNotSent, which ends the command with exit 0. Nothing
 * is sent, and no connection is opened.
 */
export function createDryRunTransport({ baseUrl, userAgent, apiKey, write }: DryRunOptions): Transport {
  const keys = apiKey === undefined ? [KEY_STAND_IN] : [KEY_STAND_IN, apiKey];
  return {
    host: baseUrl.host,
    origin: baseUrl.origin,
    async getJson(path, query, credential, headers = {}) {
      const url = serviceUrl(baseUrl, path, query);
      write(`${curlCommand({ method: 'GET', url, headers: { ...requestHeaders(userAgent, headers), [credential.name]: credential.value } }, keys)}\n`);
      throw new RequestNotSent();
    },
    async close() {},
  };
}
