import { describe, expect, it } from 'vitest';
import { describeErrorBody } from '../../../src/api/error-body.js';
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
