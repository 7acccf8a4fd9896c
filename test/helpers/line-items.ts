import { expect } from 'vitest';
import type { FeeScheduleResult, FeeScheduleResult2026 } from '../../src/api/types.js';
import { diffVersions } from '../../src/api/version-diff.js';

let serial = 0;
/** A line item of version `version`, with `fields` over a plain base. */
export function item(version: string, fields: Partial<FeeScheduleResult> = {}): FeeScheduleResult {
  serial++;
  return {
    id: `${version}-${serial}`,
    exchange_name: 'NYSE',
    fee_type: 'Equity',
    fee_category: 'Fee And Rebates',
    fee_charge_type: 'Per Share',
    fee_amount: '$0.0030',
    fee_action: 'Take',
    fee_action_details: null,
    fee_basis: null,
    fee_notes: null,
    fee_reference: null,
    fee_participant: 'Customer',
    fee_participant_details: null,
    fee_monthly_volume: null,
    fee_monthly_volume_criteria: null,
    fee_symbol_classification: 'Equity',
    fee_symbol_type: 'N/A',
    fee_trade_type: null,
    fee_symbol: null,
    fee_excluded_symbols: null,
    fee_conditions: null,
    fee_exclusions: null,
    fee_extra_info: null,
    version_id: version,
    scraped_time: version === 'v1' ? '2025-01-01T00:00:00+00:00' : '2025-02-01T00:00:00+00:00',
    created_on: version === 'v1' ? '2025-01-01T00:01:00' : '2025-02-01T00:01:00',
    ...fields,
  };
}

/** The same line item as the 2026 edition sends it, cited on a page of its version's document. */
export function item2026(version: string, fields: Partial<FeeScheduleResult2026> = {}): FeeScheduleResult2026 {
  const { id, created_on: _created, fee_reference: _reference, ...rest } = item(version);
  return {
    record_id: id,
    ...rest,
    scraped_time: version === 'v1' ? '2025-01-01T00:00:00Z' : '2025-02-01T00:00:00Z',
    source_document: `Fee schedule ${version}.pdf`,
    source_link: `https://example.com/${version}.pdf`,
    page_number: version === 'v1' ? 3 : 4,
    relationships: null,
    ...fields,
  };
}

/**
 * Diffs `equal` items of one identity that did not change and `changed` that did, each by its
 * amount: the differences that are not those `changed` amounts, each paired with its own.
 */
export function misreadOfOneIdentity(equal: number, changed: number): unknown[] {
  const many = (version: string, count: number, amount: (n: number) => string) => Array.from({ length: count }, (_, n) => item(version, { fee_amount: amount(n) }));
  const before = [...many('v1', equal, () => '$1'), ...many('v1', changed, (n) => `$${n}`)];
  const after = [...many('v2', equal, () => '$1'), ...many('v2', changed, (n) => `$${n}.5`)];
  const differences = diffVersions(before, after);
  expect(differences).toHaveLength(changed);
  return differences.filter((difference) =>
    difference.change !== 'changed' || difference.fields.join() !== 'fee_amount' || difference.after?.fee_amount !== `${difference.before?.fee_amount}.5`);
}
