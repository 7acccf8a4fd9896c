import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { nearestValue } from '../../../src/core/nearest.js';
import {
  collectList,
  collectValues,
  matchAllowed,
  parseDateRange,
  parseInteger,
  parseExchangeId,
  parseIsoDate,
  splitList,
} from '../../../src/commands/flag-values.js';

describe('collectList', () => {
  it('splits commas and accumulates repeats', () => {
    expect(collectList('NYSE, CBOE', undefined)).toEqual(['NYSE', 'CBOE']);
    expect(collectList('IEX', ['NYSE'])).toEqual(['NYSE', 'IEX']);
    expect(collectList(',,', undefined)).toEqual([]);
  });
});

describe('splitList and collectValues', () => {
  it('keeps a comma that a backslash escapes', () => {
    expect(splitList('Nasdaq\\, Inc., NYSE')).toEqual(['Nasdaq, Inc.', 'NYSE']);
    expect(splitList('a\\,b\\,c')).toEqual(['a,b,c']);
  });
  it('accumulates repeats and refuses an empty value', () => {
    const collect = collectValues('--fee-type');
    expect(collect('Option, Equity', ['ETF'])).toEqual(['ETF', 'Option', 'Equity']);
    for (const empty of ['', ' ', ',', 'Option,', ',Option', 'Option,,Equity']) {
      expect(() => collect(empty, undefined)).toThrow(UsageError);
    }
  });
});

describe('parseExchangeId', () => {
  it('takes an ASCII identifier as it is', () => {
    expect(parseExchangeId('NYSE')).toBe('NYSE');
    expect(parseExchangeId('NASDAQ-BX')).toBe('NASDAQ-BX');
  });
  it('refuses what would not be one path segment, and suggests the ASCII form of a look-alike', () => {
    for (const bad of ['', '.', '..', 'a/b', ' NYSE', 'NY\tSE', 'NY\u0000SE', 'NY\u00a0SE', 'NYSÉ']) {
      expect(() => parseExchangeId(bad)).toThrow(UsageError);
    }
    expect(() => parseExchangeId('ＮＹＳＥ')).toThrow('exchange identifier "ＮＹＳＥ" holds non-ASCII characters; did you mean NYSE?');
    // NFKC of a full-width solidus is "/": no suggestion that would itself be refused.
    expect(() => parseExchangeId('Ａ／Ｂ')).toThrow(/^exchange identifier "Ａ／Ｂ" holds non-ASCII characters$/);
  });
});

describe('matchAllowed', () => {
  const allowed = ['Option', 'Equity', 'Market Maker'];
  it('matches case-insensitively and returns the document spelling', () => {
    expect(matchAllowed('--fee-type', 'OPTION', allowed)).toBe('Option');
    expect(matchAllowed('--fee-participant', 'market maker', allowed)).toBe('Market Maker');
  });
  it('suggests the nearest value and lists the allowed ones', () => {
    try {
      matchAllowed('--fee-type', 'Opton', allowed);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe('--fee-type: unknown value "Opton"; did you mean Option?');
      expect((error as UsageError).hint).toBe('Allowed values: Option, Equity, Market Maker.');
    }
  });
  it('does not suggest a value that is far away', () => {
    expect(nearestValue('Bond', ['Option', 'Equity'])).toBeUndefined();
    expect(() => matchAllowed('--fee-type', 'Bond', allowed)).toThrow('--fee-type: unknown value "Bond"');
  });
});

describe('dates', () => {
  it('accepts real dates only', () => {
    expect(parseIsoDate('--start-date', '2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '20240101', 'yesterday', '2024-01-01T00:00:00']) {
      expect(() => parseIsoDate('--start-date', bad)).toThrow(UsageError);
    }
  });
  it('rejects a reversed period', () => {
    expect(() =>
      parseDateRange({ flag: '--start-date', value: '2024-12-31' }, { flag: '--end-date', value: '2024-01-01' }),
    ).toThrow('--start-date 2024-12-31 is after --end-date 2024-01-01');
    expect(parseDateRange({ flag: '--start-date', value: '2024-01-01' }, { flag: '--end-date', value: undefined })).toEqual({
      start: '2024-01-01',
      end: undefined,
    });
  });
});

describe('parseInteger', () => {
  it('enforces bounds', () => {
    expect(parseInteger('--page-size', '100', { min: 1, max: 100 })).toBe(100);
    expect(() => parseInteger('--page-size', '101', { min: 1, max: 100 })).toThrow(
      '--page-size: "101" is not a whole number from 1 to 100',
    );
    expect(() => parseInteger('--page-size', '0', { min: 1, max: 100 })).toThrow(UsageError);
    expect(() => parseInteger('--page-number', '-1', { min: 0 })).toThrow('is not a whole number ≥ 0');
    expect(() => parseInteger('--page-number', '1.5', { min: 0 })).toThrow(UsageError);
  });
});
