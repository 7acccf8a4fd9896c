import { describe, expect, it } from 'vitest';
import type { FeeScheduleResult } from '../../../src/api/types.js';
import { COMPARED_FIELDS, diffVersions } from '../../../src/api/version-diff.js';
import { item, item2026, misreadOfOneIdentity } from '../../helpers/line-items.js';

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

  // The same pairing as test/slow/version-diff.test.ts's 140,000 items: the equal runs merged, then more pairs than the optimum is sought for.
  it('pairs 1,400 items of one identity: the equal ones together, the rest in content order', () => {
    expect(misreadOfOneIdentity(1_000, 400)).toEqual([]);
  });

  it('compares every field of either shape but identity, ids, versions, times and where the document cites it', () => {
    expect(COMPARED_FIELDS).toEqual([
      'exchange_name', 'fee_type', 'fee_amount', 'fee_notes', 'fee_reference', 'fee_monthly_volume_criteria',
      'fee_excluded_symbols', 'fee_conditions', 'fee_exclusions', 'fee_extra_info', 'relationships',
    ]);
  });
});
