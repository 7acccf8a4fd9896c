import { describe, expect, it } from 'vitest';
import { amountDifference, parseAmount, plainDecimal } from '../../../src/api/amounts.js';

describe('parseAmount, by the contract\'s rules', () => {
  it.each([
    // 3: each currency and unit
    ['$0.0030', 0.003, 'USD'],
    ['USD 0.0030', 0.003, 'USD'],
    ['0.0030 USD', 0.003, 'USD'],
    ['€0.10', 0.1, 'EUR'],
    ['EUR 2.50', 2.5, 'EUR'],
    ['£1.25', 1.25, 'GBP'],
    ['1.25 GBP', 1.25, 'GBP'],
    ['0.30%', 0.3, '%'],
    ['5 bps', 5, 'bps'],
    ['0.5bp', 0.5, 'bps'],
    ['0.0030', 0.003, null],
    // 2: each way of writing a rebate
    ['($0.0020)', -0.002, 'USD'],
    ['$(0.0020)', -0.002, 'USD'],
    ['(0.0020)', -0.002, null],
    ['-$0.0020', -0.002, 'USD'],
    ['$-0.0020', -0.002, 'USD'],
    ['−0.0020', -0.002, null],
    ['(0.25%)', -0.25, '%'],
    // 4: thousands separators, spaces and words around
    ['$75,000.00', 75000, 'USD'],
    ['$1,250,000', 1250000, 'USD'],
    ['$ 0.0030 per share', 0.003, 'USD'],
    ['$0.50 per contract', 0.5, 'USD'],
    ['$0.50/contract', 0.5, 'USD'],
    ['$500 per port per month', 500, 'USD'],
    ['Rebate of ($0.0032) per share', -0.0032, 'USD'],
    // 1: none, or several: a range, "x if …, otherwise y"
    ['$0.0010 - $0.0030', null, 'USD'],
    ['$0.0020 if ADV above 1,000,000 shares, otherwise $0.0030', null, 'USD'],
    ['Tier 1: $0.0020', null, 'USD'],
    // 5: nothing to pay, and nothing at all
    ['Free', 0, null],
    ['NO CHARGE', 0, null],
    ['No fee', 0, null],
    ['waived', 0, null],
    ['', null, null],
    ['N/A', null, null],
    ['TBD', null, null],
    ['-', null, null],
    // hostile
    ['$1,2,3', null, 'USD'],
    ['1e308', null, null],
    ['((1))', -1, null],
    ['\u0000$\u0007 0.5', 0.5, 'USD'],
    ['\u001b[31m$0.5', null, 'USD'],
    ['\ud800$0.5', 0.5, 'USD'],
  ] as const)('%j is %s %s', (text, value, unit) => {
    expect(parseAmount(text)).toEqual({ value, unit });
  });

  it('never throws, and returns on a megabyte of digits, commas and spaces', () => {
    expect(parseAmount(null)).toEqual({ value: null, unit: null });
    expect(parseAmount('9'.repeat(1_000_000))).toEqual({ value: null, unit: null });
    for (const unit of ['9,', '$ ', '- ', '1 ']) expect(parseAmount(unit.repeat(500_000)).value).toBeNull();
  });
});

describe('parseAmount, formatting a number back', () => {
  /** A deterministic sequence of amounts: integers, cents, sub-cent rates, large sums. */
  function* amounts(): Generator<number> {
    let seed = 42;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let n = 0; n < 500; n++) {
      const scale = [1, 100, 10_000, 0.01, 1e6][n % 5] as number;
      const decimals = [0, 2, 4][n % 3] as number;
      yield Number((next() * scale).toFixed(decimals));
    }
  }

  it('reads each of the contract\'s forms as the number it was written from', () => {
    for (const amount of amounts()) {
      const grouped = amount.toLocaleString('en-US', { maximumFractionDigits: 4 });
      const plain = String(amount);
      const forms: [string, number, string | null][] = [
        [`$${grouped}`, amount, 'USD'],
        [`($${grouped})`, -amount, 'USD'],
        [`$(${plain})`, -amount, 'USD'],
        [`-€${plain}`, -amount, 'EUR'],
        [`${plain}%`, amount, '%'],
        [`${plain} bps`, amount, 'bps'],
        [`GBP ${grouped} per port per month`, amount, 'GBP'],
      ];
      for (const [text, value, unit] of forms) expect(parseAmount(text), text).toEqual({ value: value === 0 ? 0 : value, unit });
    }
  });
});

// Issue 35, point 8: an amount change keeps the precision the amounts were written with.
describe('amountDifference and plainDecimal', () => {
  it.each([
    [0.000000000001, 0.000000000002, 0.000000000001, '0.000000000001'],
    [0.003, 0.0032, 0.0002, '0.0002'],
    [0.0032, 0.003, -0.0002, '-0.0002'],
    [-0.002, 0.0035, 0.0055, '0.0055'],
    [1.5, 1.5, 0, '0'],
    [123.456, 0.000001, -123.455999, '-123.455999'],
    [1e21, 2.5e21, 1.5e21, '1500000000000000000000'],
    [2, 1e-20, -1.99999999999999999999, '-2'],
  ])('%d to %d moved %d, written %s', (before, after, moved, written) => {
    expect(amountDifference(before, after)).toBe(moved);
    expect(plainDecimal(amountDifference(before, after))).toBe(written);
  });

  it('writes a number in decimal, never with an exponent', () => {
    expect([1e-7, -1.25e-7, 0.5, 120, 0, -0, 3e21].map(plainDecimal)).toEqual(['0.0000001', '-0.000000125', '0.5', '120', '0', '0', '3000000000000000000000']);
  });
});
