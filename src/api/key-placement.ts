/**
 * Where the key goes, per family of endpoints: what the settings `exchanges_auth` and
 * `results_auth` hold (docs/service-shapes.md). Kept apart from src/api/paths.ts so that reading
 * the settings loads nothing of the HTTP layer.
 */

/** Header that carries the key on the results endpoint. */
export const RESULTS_KEY_HEADER = 'x-service-api-access-key';

/**
 * How a family of endpoints takes the key, as the settings `exchanges_auth` and `results_auth`
 * spell it: `bearer` (`Authorization: Bearer <key>`) or `header:<name>` (`<name>: <key>`).
 */
export type KeyPlacement = 'bearer' | `header:${string}`;

/** The families of endpoints that may each take the key their own way. */
export interface KeyPlacements {
  /** The exchange endpoints: fees, rules, order types, historical fees. */
  exchanges: KeyPlacement;
  /** The results endpoint, its filters and the exchange list. */
  results: KeyPlacement;
}

/**
 * The interface document's schemes: a bearer token on the exchange endpoints, a header of its
 * own on results. The 2026 edition sends that header everywhere (docs/service-shapes.md).
 */
export const DEFAULT_KEY_PLACEMENTS: KeyPlacements = { exchanges: 'bearer', results: `header:${RESULTS_KEY_HEADER}` };

/** RFC 9110's token: the characters a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;

/** Headers the transport or the connection owns: a key there would break the request or hide elsewhere. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade', 'user-agent', 'accept', 'accept-encoding', 'cookie', 'proxy-authorization']);

/** A placement given as text, lower-cased (`header:X-Api-Key` → `header:x-api-key`), or undefined when it is not one. */
export function parseKeyPlacement(text: string): KeyPlacement | undefined {
  if (text === 'bearer') return text;
  const name = text.startsWith('header:') ? text.slice('header:'.length).toLowerCase() : undefined;
  return name !== undefined && HEADER_NAME.test(name) && !RESERVED_HEADERS.has(name) ? `header:${name}` : undefined;
}
