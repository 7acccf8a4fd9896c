import { describe, expect, it } from 'vitest';
import { roffText } from '../../../src/generators/man-page.js';

describe('roffText', () => {
  it('escapes hyphens and backslashes, so that flags and paths copy as typed', () => {
    expect(roffText('--fee-type C:\\data')).toBe('\\-\\-fee\\-type C:\\edata');
  });

  it('defuses a line that would start with a request', () => {
    expect(roffText(".hidden\n'quoted")).toBe("\\&.hidden\n\\&'quoted");
  });

  it('spells the known non-ASCII characters the roff way and refuses the others', () => {
    expect(roffText('a,b,… ≥ 1 – ✓')).toBe('a,b,... \\(>= 1 \\(en yes');
    expect(() => roffText('東京')).toThrow(/no roff spelling/);
  });
});
