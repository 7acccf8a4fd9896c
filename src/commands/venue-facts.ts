import { statSync } from 'node:fs';
import { AMOUNT_CURRENCIES } from '../api/amounts.js';
import type { Context } from './context.js';
import { beginOpening, mirrorOf, serviceOf } from './mirror-location.js';
import type { Mirror } from '../mirror/mirror.js';
import { type MirrorFilters, outsideOfMirror } from '../mirror/mirror-filters.js';

/** What the mirror's records say of a venue: the fee types they carry, and the currencies their amounts name. */
export interface VenueFacts {
  feeTypes: string[];
  currencies: string[];
}

/** Whether an amount's unit is a currency (`%` and `bps` are not). */
const isCurrency = (unit: string): boolean => (AMOUNT_CURRENCIES as readonly string[]).includes(unit);

/**
 * The facts of each venue whose every record the profile's mirror holds (its filters take in all
 * of the venue's records, or of its latest versions), by identifier; a venue it holds no record
 * of is not in the map. Undefined, and no request saved, when there is no mirror of this service
 * that can be read now (none yet, no DuckDB, a sync writing it).
 */
export async function mirroredVenueFacts(context: Context): Promise<Map<string, VenueFacts> | undefined> {
  if (!statSync(await mirrorOf(context, undefined), { throwIfNoEntry: false })?.isFile()) return undefined;
  const { path, opened } = await beginOpening(context, undefined);
  let mirror: Mirror;
  try {
    mirror = await opened;
  } catch (error) {
    context.log.debug(`not reading the mirror ${path}: ${(error as Error).message}`);
    return undefined;
  }
  const identity = mirror.identity;
  if (!identity || identity.service !== serviceOf(await context.settings())) return undefined;
  const held = JSON.parse(identity.filters) as MirrorFilters;
  const rows = await mirror.rows(
    'SELECT r.exchange_name, r.fee_type, a.fee_amount_unit AS unit FROM results r LEFT JOIN mkt_amounts a ON a.fee_amount = r.fee_amount GROUP BY ALL',
  );
  const facts = new Map<string, VenueFacts>();
  for (const { exchange_name: exchange, fee_type: feeType, unit } of rows) {
    if (typeof exchange !== 'string' || outsideOfMirror({ exchange_name: [exchange], latest_only: held.latest_only }, held) !== undefined) continue;
    const venue = facts.get(exchange) ?? { feeTypes: [], currencies: [] };
    if (typeof feeType === 'string' && !venue.feeTypes.includes(feeType)) venue.feeTypes.push(feeType);
    if (typeof unit === 'string' && isCurrency(unit) && !venue.currencies.includes(unit)) venue.currencies.push(unit);
    facts.set(exchange, venue);
  }
  return facts;
}
