import { describe, expect, it } from 'vitest';
import { describeErrorBody, readErrorBody } from '../../../src/api/error-body.js';
import { toResultsSearchParams } from '../../../src/api/results-query.js';

describe('describeErrorBody', () => {
  it('reads FastAPI detail lists, detail strings and messages', () => {
    const detail = [{ type: 'less_than_equal', loc: ['query', 'page_size'], msg: 'Input should be less than or equal to 100', input: '101' }];
    expect(describeErrorBody({ detail })).toBe('page_size: Input should be less than or equal to 100');
    expect(describeErrorBody({ detail: 'Exchange not found' })).toBe('Exchange not found');
    expect(describeErrorBody({ message: 'Not authorized' })).toBe('Not authorized');
    expect(describeErrorBody('<html>503</html>')).toBeUndefined();
  });
});

describe('readErrorBody', () => {
  const KEY = 'secret-key-0123456789abcdef';

  it('reads the 2026 body: its code, and code, message and details as one line', () => {
    expect(readErrorBody({ error: { code: 'NOT_FOUND', message: 'Version not found.' }, meta: { query_time_ms: 1 } })).toEqual({ code: 'NOT_FOUND', text: 'NOT_FOUND: Version not found.' });
    expect(readErrorBody({ error: { code: 'VALIDATION_ERROR', message: 'Invalid query parameters.', details: [] } })).toEqual({
      code: 'VALIDATION_ERROR',
      text: 'VALIDATION_ERROR: Invalid query parameters.',
    });
    expect(readErrorBody({ error: { code: 'VALIDATION_ERROR', message: 'Invalid.', details: [{ loc: ['query', 'fee_type'], msg: 'bad' }, null] } }).text).toBe(
      'VALIDATION_ERROR: Invalid. (fee_type: bad; null)',
    );
  });

  it('reads the flat bodies without a code, and nothing from anything else', () => {
    expect(readErrorBody({ message: 'Invalid API key', data: [], query_time: null, success: false, status_code: 401 })).toEqual({ code: undefined, text: 'Invalid API key' });
    expect(readErrorBody({ error: 'text' })).toEqual({ code: undefined, text: undefined });
    expect(readErrorBody({ error: { code: 5 } })).toEqual({ code: undefined, text: undefined });
    expect(readErrorBody(null)).toEqual({ code: undefined, text: undefined });
  });

  it('cleans the code, the message and the details of the key and control characters, and bounds them', () => {
    const body = { error: { code: `X\u2028${KEY}`, message: `a\nb ${KEY}`, details: [`${KEY}`, 'x'.repeat(5000)] } };
    const { text } = readErrorBody(body, KEY);
    expect(text?.startsWith('X\\u2028***: a\\x0ab *** (***; xxx')).toBe(true);
    expect(text?.length).toBe(1001);
  });
});

describe('toResultsSearchParams', () => {
  it('repeats array parameters and skips absent ones', () => {
    const params = toResultsSearchParams({
      exchange_name: ['NYSE', 'CBOE'],
      fee_type: ['Option'],
      latest_only: true,
      page_size: 100,
      start_date: undefined,
    });
    expect(params.toString()).toBe('exchange_name=NYSE&exchange_name=CBOE&fee_type=Option&latest_only=true&page_size=100');
  });
});
