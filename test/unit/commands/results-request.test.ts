import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { toResultsRequest } from '../../../src/commands/results.js';

describe('toResultsRequest', () => {
  it('merges aliases, and keeps enumerated values as typed, for inServiceSpelling to spell as the service does', () => {
    const request = toResultsRequest({
      exchangeName: ['NYSE'],
      exchange: ['CBOE'],
      feeType: ['option', 'EQUITY'],
      feeCategory: ['fee and rebates'],
      since: '2024-01-01',
      until: '2024-06-30',
      orderBy: 'SCRAPED_TIME',
      orderDir: 'ASC',
      latestOnly: true,
    });
    expect(request.query).toEqual({
      exchange_name: ['NYSE', 'CBOE'],
      fee_type: ['option', 'EQUITY'],
      fee_category: ['fee and rebates'],
      start_date: '2024-01-01',
      end_date: '2024-06-30',
      latest_only: true,
      order_by: 'scraped_time',
      order_dir: 'asc',
    });
    expect(request.all).toBe(false);
    expect(request.allowDrift).toBe(false);
  });

  it('walks at the largest page size unless told otherwise', () => {
    expect(toResultsRequest({ all: true }).query.page_size).toBe(100);
    expect(toResultsRequest({ limit: '30' }).query.page_size).toBe(30);
    expect(toResultsRequest({ limit: '500' }).query.page_size).toBe(100);
    expect(toResultsRequest({ all: true, pageSize: '7' }).query.page_size).toBe(7);
    expect(toResultsRequest({}).query.page_size).toBeUndefined();
  });

  it('rejects bad values before anything is sent', () => {
    expect(() => toResultsRequest({ pageSize: '0' })).toThrow(UsageError);
    expect(() => toResultsRequest({ pageNumber: '-1' })).toThrow(UsageError);
    expect(() => toResultsRequest({ all: true, pageNumber: '2' })).toThrow('--all walks every page');
    expect(() => toResultsRequest({ startDate: '2024-01-01', since: '2024-02-01' })).toThrow(
      'give either --start-date or --since, not both',
    );
    expect(() => toResultsRequest({ orderBy: 'price' })).toThrow('--order-by: unknown value "price"');
    expect(() => toResultsRequest({ limit: '0' })).toThrow(UsageError);
  });
});
