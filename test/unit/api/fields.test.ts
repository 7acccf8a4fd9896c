import { describe, expect, it } from 'vitest';
import { EXCHANGE_FIELD_NAMES, FEE_SCHEDULE_RESULT_2026_FIELDS, FEE_SCHEDULE_RESULT_FIELD_NAMES, RESULT_FIELD_NAMES, resultFieldsOf } from '../../../src/api/fields.js';
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

describe('the declared column sets of results', () => {
  it('are the 2026 record\'s keys in its order for 2026 records, the 26 for interface ones, and the 26 then the citations for an interface record that carries one', () => {
    const names = (fields: readonly { name: string }[]) => fields.map((field) => field.name);
    const record2026 = { record_id: 'r', exchange_name: 'nyse', page_number: 3, relationships: null };
    expect(names(resultFieldsOf(record2026))).toEqual(names(FEE_SCHEDULE_RESULT_2026_FIELDS));
    expect(names(FEE_SCHEDULE_RESULT_2026_FIELDS).slice(0, 8)).toEqual([
      'record_id', 'exchange_name', 'scraped_time', 'version_id', 'fee_type', 'source_document', 'source_link', 'page_number',
    ]);
    expect(names(FEE_SCHEDULE_RESULT_2026_FIELDS).at(-1)).toBe('relationships');
    expect(names(resultFieldsOf({ id: 'i' }))).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    expect(names(resultFieldsOf(undefined))).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    expect(names(resultFieldsOf({ id: 'i', source_link: null }))).toEqual([
      ...FEE_SCHEDULE_RESULT_FIELD_NAMES, 'source_document', 'source_link', 'page_number', 'relationships',
    ]);
    // What --columns accepts and completes: either shape's names, each once.
    expect(RESULT_FIELD_NAMES).toEqual([...FEE_SCHEDULE_RESULT_FIELD_NAMES, 'source_document', 'source_link', 'page_number', 'relationships', 'record_id']);
  });
});
