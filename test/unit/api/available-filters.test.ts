import { describe, expect, it } from 'vitest';
import { exchangesOfList, feeTypesByExchange } from '../../../src/api/available-filters.js';

describe('exchangesOfList: the 2026 exchange list, read from an untrusted answer', () => {
  it('takes each entry it can name, once, with what it gives, and counts the others left out', () => {
    const body = {
      data: [
        { name: 'nyse', display_name: 'New York Stock Exchange', fee_types: ['equity', 7, 'option'], record_count: 12 },
        { name: 'nyse', display_name: 'again', fee_types: [], record_count: 1 },
        { name: 'nasdaq_phlx', display_name: 42, fee_types: 'option', record_count: -1 },
        { name: '$(touch /tmp/x)', display_name: 'shell', fee_types: [], record_count: 0 },
        { display_name: 'no name' },
        'cboe',
        null,
      ],
      meta: { record_count: 7, query_time_ms: 1 },
    };
    expect(exchangesOfList(body)).toEqual({
      exchanges: [
        { id: 'nyse', name: 'again', records: 1, feeTypes: [] },
        { id: 'nasdaq_phlx', name: null, records: null },
      ],
      dropped: 4,
    });
    expect(feeTypesByExchange(body)).toEqual(new Map([['nyse', []]]));
  });

  it('is undefined for an answer of another shape', () => {
    for (const body of [null, [], { data: { exchange_names: ['NYSE'] } }, 'text']) expect(exchangesOfList(body)).toBeUndefined();
  });
});
