import { eastAsianWidth } from 'get-east-asian-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth, graphemes, MAY_JOIN, SEGMENTED_AT_ONCE, truncateToWidth, wrapToWidth } from '../../../src/output/text-width.js';
import { longestSegmented } from '../../helpers/longest-segmented.js';

/** Unassigned code points and surrogates are not characters. */
const NOT_A_CHARACTER = /^(?:\p{Cn}|\p{Cs})$/u;
const ZERO_WIDTH = /^(?:\p{Mn}|\p{Me}|\p{Cf})$/u;

describe('text width follows Unicode’s East Asian Width', () => {
  // Every assigned character, found in one walk of the code points that both tests over all of them read.
  let assigned: string[] = [];
  beforeAll(() => {
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      const character = String.fromCodePoint(codePoint);
      if (!NOT_A_CHARACTER.test(character)) assigned.push(character);
    }
  });
  afterAll(() => {
    assigned = [];
  });

  it('gives every assigned code point on its own the cells get-east-asian-width gives it, none for a mark or a format character', () => {
    const disagreements: string[] = [];
    for (const character of assigned) {
      const codePoint = character.codePointAt(0)!;
      const expected = ZERO_WIDTH.test(character) ? 0 : eastAsianWidth(codePoint);
      const width = displayWidth(character);
      if (width !== expected) disagreements.push(`U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}: ${width}, not ${expected}`);
    }
    expect(assigned.length).toBeGreaterThan(280_000);
    expect(disagreements.slice(0, 20)).toEqual([]);
  });

  it('measures text without segmenting only where no character can join another into one grapheme', () => {
    // Between two letters, and beside its neighbours in the code, a character that joins none of them is a grapheme of its own.
    const apart = assigned.filter((character) => !MAY_JOIN.test(character));
    const segmenter = new Intl.Segmenter();
    const count = (text: string): number => {
      let graphemes = 0;
      for (const _ of segmenter.segment(text)) graphemes++;
      return graphemes;
    };
    const joined: string[] = [];
    // In short texts: Node 20's segmenter takes longer per grapheme the longer the text.
    for (let start = 0; start < apart.length; start += 100) {
      const some = apart.slice(start, start + 100);
      if (count(`a${some.join('a')}a`) !== 2 * some.length + 1 || count(some.join('')) !== some.length) joined.push(`${some[0]!} to ${some.at(-1)!}`);
    }
    expect(apart.length).toBeGreaterThan(280_000);
    expect(joined).toEqual([]);
  });

  it.each([
    ['\u2329\u232A', 4], // angle brackets, wide since Unicode 3
    ['︐︙', 4], // vertical forms, U+FE10 to U+FE19
    ['﹐﹫', 4], // small form variants, to U+FE6B
    ['𗀀𘠀', 4], // Tangut
    ['🀄', 2],
    ['🀀', 1], // a mahjong tile without emoji presentation
    ['🇯🇵', 2], // a flag: two regional indicators
    ['❤️', 2], // made an emoji by U+FE0F
    ['1️⃣', 2],
    ['\u1100\u1161\u11A8', 2], // a Hangul syllable of conjoining jamo
    ['\u{16D67}\u{16D68}', 1], // Kirat Rai vowel signs, one grapheme together since Unicode 16
    ['Ⓐ§°', 3], // ambiguous: narrow
    ['東京 ＦＵＬＬ', 13],
  ])('%j takes %i cells', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it('cuts wide text where Unicode says it is wide', () => {
    expect(truncateToWidth('\u2329\u232A\u2329\u232A', 5)).toBe('\u2329\u232A…');
  });
});

describe('text longer than the segmenter is given at once', () => {
  /** Graphemes that join several code points, each by a rule of its own (UAX #29). */
  const JOINED = ['e\u0301', '🇯🇵', '🇺🇸', '👩‍👩‍👧', '👍🏽', '\r\n', '\u1100\u1161\u11A8', 'क्ष', 'क्‍ष', '\u0600a', '❤️', 'a'];

  it.each([0, 1, 2, 3, 5, 8])('gives the graphemes of one segmentation, the pieces starting %i code units on', (offset) => {
    // Every kind of grapheme at every place of a piece: their lengths, and the offset, move each across a piece's end.
    const text = 'x'.repeat(offset) + Array.from({ length: 4 * SEGMENTED_AT_ONCE }, (_, index) => JOINED[index % JOINED.length]).join('');
    expect([...graphemes(text)]).toEqual(Array.from(new Intl.Segmenter().segment(text), ({ segment }) => segment));
  });

  it('measures, cuts and wraps a long text segmenting no more than a piece at once', async () => {
    const sentence = 'Rule text e\u0301 with a mark. ';
    const text = sentence.repeat(100);
    const { longest } = await longestSegmented(() => {
      expect(displayWidth(text)).toBe(100 * (sentence.length - 1));
      expect(truncateToWidth(text, 16)).toBe('Rule text e\u0301 wit…');
      expect(wrapToWidth(text, 60).slice(0, 2)).toEqual(['Rule text e\u0301 with a mark. Rule text e\u0301 with a mark. Rule text', 'e\u0301 with a mark. Rule text e\u0301 with a mark. Rule text e\u0301 with a']);
    });
    expect(longest).toBeLessThanOrEqual(SEGMENTED_AT_ONCE);
  });

  it('cuts a grapheme longer than a piece where the piece ends, never inside a character, and loses none of it', () => {
    const marks = `a${'\u0301'.repeat(2 * SEGMENTED_AT_ONCE)}b`;
    expect([...graphemes(marks)].join('')).toBe(marks);
    expect(displayWidth(marks)).toBe(2);
    // Emoji joined by U+200D are one grapheme however many: 3 code units each, so that a piece's end falls inside one.
    const chain = Array(SEGMENTED_AT_ONCE).fill('👩').join('\u200D');
    const pieces = [...graphemes(chain)];
    expect(pieces.join('')).toBe(chain);
    expect(pieces.filter((piece) => /[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/.test(piece))).toEqual([]);
  });
});
