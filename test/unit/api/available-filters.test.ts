import { describe, expect, it } from 'vitest';
import { ENUM_FILTER_VALUES } from '../../../src/api/filters.js';
import { allowedFilterValues } from '../../../src/api/available-filters.js';
import { matchAllowed } from '../../../src/commands/flag-values.js';

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
