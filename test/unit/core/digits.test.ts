import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../../src/core/digits.js';

const asIntl = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 10 });

describe('groupDigits', () => {
  it.each([0, -0, 1, -1, 999, 1000, -1000, 12_345, 300_000, 1_000_000, -987_654_321, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])(
    'writes %d as toLocaleString does',
    (value) => {
      expect(groupDigits(value)).toBe(asIntl(value));
    },
  );

  it('agrees with toLocaleString on random integers, fractions and the odd values', () => {
    const values = [0.5, -1234.5678, 1e21, 2 ** 53, 1e-7, 0.30000000000000004, Infinity, -Infinity, Number.NaN];
    for (let i = 0; i < 2000; i++) {
      const magnitude = 10 ** Math.floor(Math.random() * 16);
      values.push(Math.round((Math.random() - 0.5) * magnitude), (Math.random() - 0.5) * magnitude);
    }
    for (const value of values) expect(groupDigits(value), String(value)).toBe(asIntl(value));
  });
});
