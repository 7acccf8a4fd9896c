import { describe, expect, it } from 'vitest';
import { allowedFilterValues, exchangesOfList, feeTypesByExchange } from '../../../src/api/available-filters.js';
import { ENUM_FILTER_VALUES } from '../../../src/api/filters.js';
import { matchAllowed } from '../../../src/commands/flag-values.js';

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


describe('allowedFilterValues', () => {
  it('is the interface document\'s table when the service lists nothing', () => {
    expect(allowedFilterValues(null).fee_category).toEqual([...ENUM_FILTER_VALUES.fee_category]);
    expect(allowedFilterValues(undefined).fee_type).toEqual(['Option', 'Equity']);
  });

  it('takes the service\'s spelling of a value, its new values, and the table\'s values it does not list', () => {
    const allowed = allowedFilterValues({
      fee_category: ['fees_and_rebates', 'general_provisions', 'legal_regulatory_fee'],
      fee_symbol_classification: ['etf', 'equity_class', 'not_applicable'],
    });
    expect(allowed.fee_category).toEqual(['fees_and_rebates', 'general_provisions', 'legal_regulatory_fee', 'Market Data Fees', 'Participant Fee', 'Port Fees And Other Services']);
    expect(allowed.fee_symbol_classification).toEqual(['etf', 'equity_class', 'not_applicable', 'ETN', 'Index', 'All']);
  });

  it('keeps the table\'s spelling where the service lists it beside another of the same value', () => {
    expect(allowedFilterValues({ fee_type: ['OPTION', 'Equity', 'Option'] }).fee_type).toEqual(['Option', 'Equity']);
  });

  it('lets either spelling of a value find the service\'s', () => {
    const allowed = allowedFilterValues({ fee_category: ['fees_and_rebates', 'legal_regulatory_fee'], fee_participant: ['broker_dealer'], fee_symbol_classification: ['equity_class'] });
    expect(matchAllowed('--fee-category', 'Fee And Rebates', allowed.fee_category)).toBe('fees_and_rebates');
    expect(matchAllowed('--fee-category', 'Legal Regulatory Fees', allowed.fee_category)).toBe('legal_regulatory_fee');
    expect(matchAllowed('--fee-participant', 'Broker Dealer', allowed.fee_participant)).toBe('broker_dealer');
    expect(matchAllowed('--fee-symbol-classification', 'Equity', allowed.fee_symbol_classification)).toBe('equity_class');
  });
});
