import type { ExchangeResource } from '../api/paths.js';
import { deriveColumns } from '../output/columns.js';
import { flattenRecord } from '../output/flatten.js';
import type { JsonObject } from '../output/exporter.js';
import { serveExchange } from '../sandbox/exchange-routes.js';
import { SANDBOX_KEYS } from '../sandbox/keys.js';
import { DEFAULT_SEED } from '../sandbox/limits.js';
import { VENUES } from '../sandbox/venues.js';

/**
 * The columns an exchange command's `--columns` can name: the sandbox's answers for every venue,
 * flattened as table, CSV and Parquet flatten them, so that the completions follow the data
 * (every tier the sandbox gives a venue included). In the order the names are first seen.
 */
export function exchangeColumns(resource: ExchangeResource): string[] {
  const rows = VENUES.flatMap((venue) => {
    const response = serveExchange(DEFAULT_SEED, venue.id, resource, new URLSearchParams(), SANDBOX_KEYS.api_key);
    if (response.status !== 200) throw new Error(`the sandbox answered ${response.status} for ${venue.id}'s ${resource}`);
    return flattenRecord(JSON.parse(response.body.toString()) as JsonObject);
  });
  return deriveColumns(rows).map((column) => column.name);
}
