import { describe, expect, it } from 'vitest';
import { enumKey } from '../../../src/api/filter-spelling.js';

describe('enumKey', () => {
  it('makes the two editions spellings of a value one', () => {
    expect(enumKey('Fee And Rebates')).toBe(enumKey('fees_and_rebates'));
    expect(enumKey('Fees And Rebates')).toBe(enumKey('Fee And Rebates'));
    expect(enumKey('Legal Regulatory Fees')).toBe(enumKey('legal_regulatory_fee'));
    expect(enumKey('Broker Dealer')).toBe(enumKey('broker_dealer'));
    expect(enumKey('N/A')).toBe(enumKey('not_applicable'));
    expect(enumKey('OPTION')).toBe(enumKey('option'));
    expect(enumKey('Equity')).toBe(enumKey('equity_class'));
    expect(enumKey('Multiply Traded Options')).toBe(enumKey('multiply_traded_options'));
  });

  it('keeps different values apart', () => {
    expect(enumKey('Market Maker')).not.toBe(enumKey('Away Market Maker'));
    expect(enumKey('Penny')).not.toBe(enumKey('Non Penny'));
    expect(enumKey('class')).toBe('class');
    expect(enumKey('equity_class_b')).not.toBe(enumKey('Equity'));
  });
});
