import { describe, expect, it } from 'vitest';
import { bodyText } from '../../../src/http/body-text.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('bodyText', () => {
  it('reads UTF-8 as text unless byte strings are asked for, leaving out a byte order mark', () => {
    const body = Buffer.concat([BOM, Buffer.from('{"n":"émigré 🚀"}')]);
    expect(bodyText(body, false)).toEqual({ text: '{"n":"émigré 🚀"}', byteStrings: false });
  });

  it('reads byte strings as Latin-1, which gives back the same bytes, and parses to the same structure', () => {
    const json = '{"n":"émigré 🚀","m":"\\u001f\\"","k":[1,null]}';
    const read = bodyText(Buffer.concat([BOM, Buffer.from(json)]), true);
    expect(read.byteStrings).toBe(true);
    expect(read.text.length).toBe(Buffer.byteLength(json));
    expect(Buffer.from(read.text, 'latin1').toString('utf8')).toBe(json);
    const parsed = JSON.parse(read.text) as { n: string; m: string; k: unknown[] };
    expect(Buffer.from(parsed.n, 'latin1').toString('utf8')).toBe('émigré 🚀');
    expect(parsed.m).toBe('\u001f"');
    expect(parsed.k).toEqual([1, null]);
  });

  it.each(['"caf\\u00e9"', '"\\ud83d\\ude80"', '"\\u20ac"', '"\\\\u00e9 is not an escape, but counts"'])(
    'reads %s as text: an escape beyond ASCII would make a character, not bytes',
    (json) => {
      const read = bodyText(Buffer.from(json), true);
      expect(read).toEqual({ text: json, byteStrings: false });
    },
  );
});
