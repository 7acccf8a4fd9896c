import { describe, expect, it } from 'vitest';
import { describeErrorBody } from '../../../src/api/error-body.js';
import { serverText } from '../../../src/http/server-text.js';

describe('serverText', () => {
  const key = 'k3y/with+chars';

  it('replaces every occurrence of the key, as sent and percent-encoded', () => {
    expect(serverText(`a ${key} b ${key} c ${encodeURIComponent(key)}`, key)).toBe('a *** b *** c ***');
  });

  it('replaces the key percent-encoded in any case, whichever of its characters are encoded', () => {
    const odd = 'SeCrEtKeY/with+plus';
    expect(serverText('a SeCrEtKeY%2fwith%2bplus b SeCrEtKeY%2Fwith%2bplus c SeCrEtKeY/with%2Bplus', odd)).toBe('a *** b *** c ***');
    expect(serverText('%53eCrEtKeY%2fwith+plus', odd)).toBe('***');
    // The key's own letters keep their case: another key is not this one.
    expect(serverText('secretkey/with+plus', odd)).toBe('secretkey/with+plus');
  });

  it('makes control characters visible, so the text is one line', () => {
    expect(serverText('a\nb\r\u001b[31m\u0000\u007f\u0085\u2028\u202e', undefined)).toBe(
      'a\\x0ab\\x0d\\x1b[31m\\x00\\x7f\\x85\\u2028\\u202e',
    );
  });

  it('leaves ordinary text, non-ASCII included, alone', () => {
    expect(serverText('Exchange \'NYSE\' not found — é', 'other')).toBe('Exchange \'NYSE\' not found — é');
  });

  it('cuts very long text', () => {
    expect(serverText('x'.repeat(5000), undefined)).toBe(`${'x'.repeat(1000)}…`);
  });

  it('is what describeErrorBody returns', () => {
    expect(describeErrorBody({ detail: [{ loc: ['query', 'page_size'], msg: `bad ${key}\n` }] }, key)).toBe('page_size: bad ***\\x0a');
  });
});
