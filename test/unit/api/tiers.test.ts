import { describe, expect, it } from 'vitest';
import { blendedRate, parseVolume, ratesAtVolume } from '../../../src/api/tiers.js';

describe('parseVolume', () => {
  it.each([
    ['50000000', 50_000_000],
    ['5e7', 50_000_000],
    ['50M', 50_000_000],
    ['50m', 50_000_000],
    ['2.5B', 2_500_000_000],
    ['750K', 750_000],
    ['1,000,000', 1_000_000],
    [' 0 ', 0],
  ])('reads %j as %d', (text, volume) => {
    expect(parseVolume(text)).toBe(volume);
  });

  it.each(['', '-5', '1.5', '1.0001K', '5e', 'e7', '50 M', '1,00,000', '10,000.5', '5MB', '1e400', '9007199254740993', 'NaN', 'Infinity', '0x10'])(
    'refuses %j',
    (text) => {
      expect(parseVolume(text)).toBeUndefined();
    },
  );
});

const schedule = {
  maker_fee: -0.0020,
  taker_fee: 0.0030,
  tier_thresholds: {
    tier_10: { volume: 90_000_000, maker_rebate: -0.0034 },
    tier_1: { volume: 10_000_000, maker_rebate: -0.0025 },
    tier_2: { volume: 50_000_000, maker_rebate: -0.0030 },
  },
};

describe('ratesAtVolume', () => {
  it.each([
    [0, null, -0.002],
    [9_999_999, null, -0.002],
    [10_000_000, 'tier_1', -0.0025],
    [50_000_000, 'tier_2', -0.003],
    [89_999_999, 'tier_2', -0.003],
    [2_500_000_000, 'tier_10', -0.0034],
  ])('at %d applies %s: the highest threshold not above the volume', (volume, tier, maker) => {
    expect(ratesAtVolume(schedule, volume)).toEqual({ volume, tier, maker, taker: 0.003 });
  });

  it('takes the higher-numbered of two tiers with one threshold, and leaves out tiers that are not numbers', () => {
    const odd = { maker_fee: 0, taker_fee: 1, tier_thresholds: { tier_1: { volume: 5, maker_rebate: -1 }, tier_2: { volume: 5, maker_rebate: -2 }, tier_3: { volume: '1', maker_rebate: -9 }, tier_4: null } };
    expect(ratesAtVolume(odd, 10)).toEqual({ volume: 10, tier: 'tier_2', maker: -2, taker: 1 });
  });

  it.each([null, {}, { maker_fee: '0.1', taker_fee: 0.2 }, { maker_fee: 0.1, taker_fee: Number.NaN }])('refuses a schedule without numeric fees: %j', (body) => {
    expect(ratesAtVolume(body, 1)).toBeUndefined();
  });
});

describe('blendedRate', () => {
  it('weighs maker and taker by the make share, without floating-point noise', () => {
    const rates = { volume: 0, tier: null, maker: -0.25, taker: 0.3 };
    expect(blendedRate(rates, 0.5)).toBe(0.025);
    expect(blendedRate(rates, 1)).toBe(-0.25);
    expect(blendedRate(rates, 0)).toBe(0.3);
  });
});
