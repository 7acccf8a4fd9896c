import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../../src/api/id-set.js';

describe('IdSet', () => {
  it('answers as a Set of strings would, over many UUIDs and other ids, through growth', () => {
    const ids = new IdSet();
    const reference = new Set<string>();
    const uuids = Array.from({ length: 5000 }, () => randomUUID());
    const all = [...uuids, ...uuids.slice(0, 100), 'a', 'a', '', '00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000000'];
    for (const id of all) {
      expect(ids.add(id), id).toBe(!reference.has(id));
      reference.add(id);
    }
    expect(ids.size).toBe(reference.size);
  });

  it('tells apart ids that differ in one digit, and a UUID from its upper-case spelling', () => {
    const ids = new IdSet();
    expect(ids.add('0d73bb8b-e814-4d15-8c3b-768720bcb245')).toBe(true);
    for (const other of [
      '0d73bb8b-e814-4d15-8c3b-768720bcb246',
      '1d73bb8b-e814-4d15-8c3b-768720bcb245',
      '0d73bb8b-e815-4d15-8c3b-768720bcb245',
      '0d73bb8b-e814-4d16-8c3b-768720bcb245',
      '0d73bb8b-e814-4d15-8c3c-768720bcb245',
      '0D73BB8B-E814-4D15-8C3B-768720BCB245',
      '0d73bb8be8144d158c3b768720bcb245',
    ]) {
      expect(ids.add(other), other).toBe(true);
    }
    expect(ids.add('0d73bb8b-e814-4d15-8c3b-768720bcb245')).toBe(false);
    expect(ids.size).toBe(8);
  });

  it('keeps sequential UUIDs apart as it grows', () => {
    const ids = new IdSet();
    const sequential = Array.from({ length: 3000 }, (_, index) => `00000000-0000-0000-0000-${index.toString(16).padStart(12, '0')}`);
    for (const id of sequential) expect(ids.add(id)).toBe(true);
    for (const id of sequential) expect(ids.add(id)).toBe(false);
    expect(ids.size).toBe(3000);
  });

  it('grows a small table at a time, never copying the whole set at once', () => {
    const allocated: number[] = [];
    const ids = new IdSet((words) => {
      allocated.push(words);
      return new Uint32Array(words);
    });
    const uuids = Array.from({ length: 20_000 }, () => randomUUID());
    const added = uuids.filter((id) => ids.add(id)).length;
    const addedAgain = uuids.filter((id) => ids.add(id)).length;
    expect([added, addedAgain, ids.size]).toEqual([20_000, 0, 20_000]);
    // Four words a UUID: no growth asks for a fiftieth of what the set holds.
    expect(allocated.length).toBeGreaterThan(256);
    expect(Math.max(...allocated) * 50).toBeLessThan(uuids.length * 4);
  });
});
