import { describe, expect, it } from 'vitest';
import { formatTimestampMicros, isFormattedTimestamp, isoDuration, parseDateDays, parseTimestampMicros } from '../../../src/core/timestamps.js';

describe('parseTimestampMicros', () => {
  it.each([
    ['1970-01-01T00:00:00Z', 0n],
    ['1970-01-01T00:00:00.000001+00:00', 1n],
    ['2024-05-01T13:45:12.123456+00:00', 1_714_571_112_123_456n],
    ['2024-05-01T13:45:12.123456Z', 1_714_571_112_123_456n],
    ['2024-05-01T19:15:12.123456+05:30', 1_714_571_112_123_456n],
    ['2024-05-01T09:45:12.123456-0400', 1_714_571_112_123_456n],
    ['2024-05-01T11:45:12.123456-02', 1_714_571_112_123_456n],
    ['2024-05-01 13:45:12.123456+00:00', 1_714_571_112_123_456n],
    ['2024-05-01T13:45:12.1234569Z', 1_714_571_112_123_456n],
    ['2024-05-01T13:45:12.1+00:00', 1_714_571_112_100_000n],
    ['1969-12-31T23:59:59.999999Z', -1n],
    ['2024-02-29', 1_709_164_800_000_000n],
    ['0099-01-01T00:00:00Z', -59_042_995_200_000_000n],
    ['2024-05-02T13:44:12.123456+23:59', 1_714_571_112_123_456n],
    ['2024-05-01t13:45:12.123456z', 1_714_571_112_123_456n],
    ['2024-05-01T13:45:12,123456Z', 1_714_571_112_123_456n],
    [' 2024-05-01T19:15:12.123456+0530\n', 1_714_571_112_123_456n],
    ['2024-05-01T13:45Z', 1_714_571_100_000_000n],
    ['2024-05-01T13:45:12.123456789Z', 1_714_571_112_123_456n],
    ['2024-05-01T13:45:12.123456789012+00:00', 1_714_571_112_123_456n],
    ['2024-05-01Z', 1_714_521_600_000_000n],
  ])('reads %s with its microseconds', (text, micros) => {
    expect(parseTimestampMicros(text)).toBe(micros);
  });

  it('reads a time without an offset as the wall clock', () => {
    expect(parseTimestampMicros('2024-05-01T13:47:00.654321')).toBe(1_714_571_220_654_321n);
  });

  it.each(['', 'yesterday', '2024-13-01T00:00:00Z', '2023-02-29T00:00:00', '2024-05-01T24:00:00Z', '2024-05-01T13:45:12+5', '2024-05-01T13:45:12.Z', '2024-05-01T13:45:12+99:99', '2024-05-01T13:45:12+24:00', '2024-05-01T13:45:12-05:60', '2024-05-01T13:45:12+05:', '2024-05-01T13:45:12+05:3', '2024-5-01', '2024-05-01T13:4512Z', '2024-05-01T1:45:12Z', '2024-05-01X13:45:12Z', '2024-05-01T13:45:12ZZ', '２０２４-05-01'])(
    'refuses %j',
    (text) => {
      expect(parseTimestampMicros(text)).toBeUndefined();
    },
  );
});

describe('isFormattedTimestamp', () => {
  it('agrees with formatting again, for every timestamp the parser reads', () => {
    const texts = [
      '2024-05-01T13:45:12.123456+00:00',
      '2024-05-01T13:45:12.123456',
      '0000-01-01T00:00:00.000000',
      '9999-12-31T23:59:59.999999+00:00',
      '2024-05-01T13:45:12.123456Z',
      '2024-05-01T13:45:12.123456+05:30',
      '2024-05-01T13:45:12.123456-00:00',
      '2024-05-01T13:45:12.12345+00:00',
      '2024-05-01 13:45:12.123456',
      '2024-05-01t13:45:12.123456',
      '2024-05-01T13:45:12,123456',
      '2024-05-01T13:45:12.1234560',
      '2024-05-01T13:45:12.123456+0000',
      '2024-05-01T13:45Z',
      '2024-05-01',
    ];
    for (let step = 0; step < 2000; step++) {
      const micros = BigInt(Math.floor(Math.random() * 2 ** 52)) * (step % 2 ? 1n : -1n);
      texts.push(formatTimestampMicros(micros, true) ?? '', formatTimestampMicros(micros, false) ?? '');
    }
    for (const text of texts) {
      const micros = parseTimestampMicros(text);
      if (micros === undefined) continue;
      for (const withOffset of [true, false]) {
        expect([text, withOffset, isFormattedTimestamp(text, withOffset)]).toEqual([text, withOffset, formatTimestampMicros(micros, withOffset) === text]);
      }
    }
  });
});

describe('parseDateDays', () => {
  it.each([
    ['1970-01-01', 0],
    ['2024-02-29', 19_782],
    ['1969-12-31', -1],
    ['0000-01-01', -719_528],
  ])('%s is day %d', (text, days) => {
    expect(parseDateDays(text)).toBe(days);
  });

  it.each(['2023-02-29', '2024-13-01', '2024-1-01', '2024-01-01T00:00', 'infinity', '5877642-06-25 (BC)'])('%s is no date', (text) => {
    expect(parseDateDays(text)).toBeUndefined();
  });
});

describe('isoDuration', () => {
  it.each([
    ['P1D', { months: 0, days: 1, micros: 0n }],
    ['PT1H30M', { months: 0, days: 0, micros: 5_400_000_000n }],
    ['P1Y2M3DT4H5M6.5S', { months: 14, days: 3, micros: 14_706_500_000n }],
    ['PT0S', { months: 0, days: 0, micros: 0n }],
    ['PT0.000001S', { months: 0, days: 0, micros: 1n }],
    ['P-1YT-1M', { months: -12, days: 0, micros: -60_000_000n }],
    ['P1M-1DT-1H-0.25S', { months: 1, days: -1, micros: -3_600_250_000n }],
  ])('%s', (text, interval) => {
    expect(isoDuration(interval)).toBe(text);
  });
});
