import { venueIndexOf } from './venues.js';

/**
 * The sandbox's two demo keys. They are fixed (not drawn from the seed) so that docs, scripts
 * and tests can name them; they grant nothing anywhere but a local sandbox.
 */
export const SANDBOX_KEYS = {
  /** Licensed for every exchange. */
  api_key: 'mkt-sandbox-key-all-exchanges',
  /** Licensed for SCOPED_EXCHANGES only. */
  scoped_api_key: 'mkt-sandbox-key-scoped',
} as const;

/** The exchanges the scoped key is licensed for: two with Equity and Option schedules, one Option-only. */
export const SCOPED_EXCHANGES: readonly string[] = ['NYSE', 'NASDAQ', 'CBOE'];

/** What a key may see. */
export interface Licence {
  /** Venue indexes; undefined means every venue. */
  venues: ReadonlySet<number> | undefined;
}

const SCOPED_VENUES: ReadonlySet<number> = new Set(
  SCOPED_EXCHANGES.map((id) => {
    const index = venueIndexOf(id);
    if (index === undefined) throw new Error(`scoped exchange ${id} is not a venue`);
    return index;
  }),
);

/** The licence of a presented key; undefined when the key is missing or unknown. */
export function licenceOf(key: string | undefined): Licence | undefined {
  if (key === SANDBOX_KEYS.api_key) return { venues: undefined };
  if (key === SANDBOX_KEYS.scoped_api_key) return { venues: SCOPED_VENUES };
  return undefined;
}

export function isLicensedFor(licence: Licence, venueIndex: number): boolean {
  return licence.venues === undefined || licence.venues.has(venueIndex);
}
