import { describe, expect, it } from 'vitest';
import { COMPARED_FIELDS, diffVersions } from '../../../src/api/version-diff.js';
import type { FeeScheduleResult, FeeScheduleResult2026 } from '../../../src/api/types.js';

let serial = 0;
/** A line item of version `version`, with `fields` over a plain base. */
function item(version: string, fields: Partial<FeeScheduleResult> = {}): FeeScheduleResult {
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
function item2026(version: string, fields: Partial<FeeScheduleResult2026> = {}): FeeScheduleResult2026 {
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

describe('diffVersions', () => {
  it('pairs 2026 records by what they are: their record_id, version, time and where they are cited aside', () => {
    expect(diffVersions([item2026('v1')], [item2026('v2')])).toEqual([]);
    const before = item2026('v1');
    const after = item2026('v2', { fee_amount: '$0.0032', relationships: { footnotes: [{ text: 'New.' }], definitions: [] } });
    expect(diffVersions([before], [after])).toEqual([{ change: 'changed', before, after, fields: ['fee_amount', 'relationships'] }]);
  });

  it('reports nothing for items that did not change, whatever their ids, versions and times', () => {
    expect(diffVersions([item('v1'), item('v1', { fee_action: 'Make' })], [item('v2', { fee_action: 'Make' }), item('v2')])).toEqual([]);
  });

  it('reports a changed amount, note or condition with exactly those fields', () => {
    const before = item('v1');
    const after = item('v2', { fee_amount: '$0.0032', fee_notes: 'new note' });
    expect(diffVersions([before], [after])).toEqual([{ change: 'changed', before, after, fields: ['fee_amount', 'fee_notes'] }]);
  });

  it('reports an item whose identity is new as added, and one that is gone as removed', () => {
    const kept = [item('v1'), item('v2')];
    const gone = item('v1', { fee_participant: 'Firm' });
    const added = item('v2', { fee_participant: 'Market Maker' });
    // By identity: Firm's before Market Maker's.
    expect(diffVersions([kept[0]!, gone], [kept[1]!, added])).toEqual([
      { change: 'removed', before: gone, after: null, fields: [] },
      { change: 'added', before: null, after: added, fields: [] },
    ]);
  });

  it('compares values that are not text as their JSON, and takes a missing field for null', () => {
    const odd = (version: string, notes: unknown, conditions: unknown) =>
      item(version, { fee_notes: notes, fee_conditions: conditions } as unknown as Partial<FeeScheduleResult>);
    const { fee_extra_info: _, ...withoutExtra } = item('v2');
    expect(diffVersions([odd('v1', { cap: [1, 2] }, 3)], [odd('v2', { cap: [1, 2] }, 3)])).toEqual([]);
    expect(diffVersions([item('v1')], [withoutExtra as FeeScheduleResult])).toEqual([]);
    const before = odd('v1', { cap: [1, 2] }, 3);
    const after = odd('v2', { cap: [1, 3] }, '3');
    expect(diffVersions([before], [after])).toEqual([{ change: 'changed', before, after, fields: ['fee_notes', 'fee_conditions'] }]);
    const nulled = odd('v2', null, 3);
    expect(diffVersions([before], [nulled])).toEqual([{ change: 'changed', before, after: nulled, fields: ['fee_notes'] }]);
  });

  it('takes Fees And Rebates for Fee And Rebates, in any case', () => {
    expect(diffVersions([item('v1', { fee_category: 'FEES AND REBATES' })], [item('v2')])).toEqual([]);
  });

  it('pairs items of one identity so that the fewest differences are reported', () => {
    const before = [item('v1', { fee_amount: '$0.0010', fee_notes: 'a' }), item('v1', { fee_amount: '$0.0020', fee_notes: 'b' })];
    const after = [item('v2', { fee_amount: '$0.0020', fee_notes: 'b' }), item('v2', { fee_amount: '$0.0011', fee_notes: 'a' })];
    expect(diffVersions(before, after)).toEqual([{ change: 'changed', before: before[0], after: after[1], fields: ['fee_amount'] }]);
  });

  it('reports the extra items of an identity as added or removed, and pairs the rest', () => {
    const before = [item('v1', { fee_amount: '$1' })];
    const after = [item('v2', { fee_amount: '$2' }), item('v2', { fee_amount: '$1' })];
    expect(diffVersions(before, after)).toEqual([{ change: 'added', before: null, after: after[0], fields: [] }]);
    expect(diffVersions(after, before)).toEqual([{ change: 'removed', before: after[0], after: null, fields: [] }]);
  });

  it('gives the same output for the same items in any order', () => {
    const before = Array.from({ length: 6 }, (_, n) => item('v1', { fee_amount: `$${n % 3}`, fee_notes: `${n % 2}` }));
    const after = Array.from({ length: 5 }, (_, n) => item('v2', { fee_amount: `$${(n + 1) % 3}`, fee_notes: `${n % 2}` }));
    const once = diffVersions(before, after);
    expect(diffVersions([...before].reverse(), [...after].reverse())).toEqual(once);
    expect(once.filter((difference) => difference.change !== 'changed')).toHaveLength(1);
  });

  it('pairs a large identity in content order, deterministically, once the optimum would cost too much', () => {
    const before = Array.from({ length: 300 }, (_, n) => item('v1', { fee_amount: `$${n}` }));
    const after = Array.from({ length: 300 }, (_, n) => item('v2', { fee_amount: `$${n}.5` }));
    const once = diffVersions(before, after);
    expect(once).toHaveLength(300);
    expect(once.every((difference) => difference.change === 'changed' && difference.fields.join() === 'fee_amount')).toBe(true);
    expect(diffVersions([...before].reverse(), [...after].reverse())).toEqual(once);
  });

  // Issue 35, point 8: the pairing grows with the items of an identity, not their square (today's took a minute here).
  it('pairs 140,000 items of one identity: the equal ones together, the rest in content order', () => {
    const many = (version: string, count: number, amount: (n: number) => string) => Array.from({ length: count }, (_, n) => item(version, { fee_amount: amount(n) }));
    const before = [...many('v1', 100_000, () => '$1'), ...many('v1', 40_000, (n) => `$${n}`)];
    const after = [...many('v2', 100_000, () => '$1'), ...many('v2', 40_000, (n) => `$${n}.5`)];
    const differences = diffVersions(before, after);
    expect(differences).toHaveLength(40_000);
    const misread = differences.filter((difference) =>
      difference.change !== 'changed' || difference.fields.join() !== 'fee_amount' || difference.after?.fee_amount !== `${difference.before?.fee_amount}.5`);
    expect(misread).toEqual([]);
  });

  it('compares every field of either shape but identity, ids, versions, times and where the document cites it', () => {
    expect(COMPARED_FIELDS).toEqual([
      'exchange_name', 'fee_type', 'fee_amount', 'fee_notes', 'fee_reference', 'fee_monthly_volume_criteria',
      'fee_excluded_symbols', 'fee_conditions', 'fee_exclusions', 'fee_extra_info', 'relationships',
    ]);
  });
});
