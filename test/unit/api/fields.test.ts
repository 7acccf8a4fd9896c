import { describe, expect, it } from 'vitest';
import { EXCHANGE_FIELD_NAMES } from '../../../src/api/fields.js';
import { EXCHANGE_RESOURCES, type ExchangeResource } from '../../../src/api/paths.js';
import { withTierLists } from '../../../src/api/tiers.js';
import { deriveColumns } from '../../../src/output/columns.js';
import type { JsonObject } from '../../../src/output/exporter.js';
import { flattenRecord } from '../../../src/output/flatten.js';
import { serveExchange } from '../../../src/sandbox/exchange-routes.js';
import { SANDBOX_KEYS } from '../../../src/sandbox/keys.js';
import { DEFAULT_SEED } from '../../../src/sandbox/limits.js';
import { VENUES } from '../../../src/sandbox/venues.js';

/** The columns of the sandbox's answers for every venue, flattened as table, CSV and Parquet flatten them (a schedule's tiers as rows). */
function sandboxColumns(resource: ExchangeResource): string[] {
  const rows = VENUES.flatMap((venue) => {
    const response = serveExchange(DEFAULT_SEED, venue.id, resource, new URLSearchParams(), SANDBOX_KEYS.api_key);
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body.toString()) as JsonObject;
    return flattenRecord(resource === 'fees' || resource === 'historical' ? withTierLists(body) : body);
  });
  return deriveColumns(rows).map((column) => column.name);
}

describe('the declared fields of each exchange command', () => {
  it.each(Object.keys(EXCHANGE_RESOURCES) as ExchangeResource[])('%s: are the columns of the sandbox\'s answers, in their order', (resource) => {
    expect(EXCHANGE_FIELD_NAMES[resource]).toEqual(sandboxColumns(resource));
  });
});
