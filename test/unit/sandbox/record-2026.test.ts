import { describe, expect, it } from 'vitest';
import { Record2026Builder } from '../../../src/sandbox/record-2026.js';
import { ResultsDataset } from '../../../src/sandbox/results-dataset.js';
import { NO_INCLUDES } from '../../../src/sandbox/results-query.js';
import { RecordBuilder } from '../../../src/sandbox/results-record.js';

/** The 2026 edition's record keys, in the order its examples serialise them (shared/service-2026.md, "The record"). */
const KEYS_2026 = [
  'record_id', 'exchange_name', 'scraped_time', 'version_id', 'fee_type', 'source_document', 'source_link',
  'page_number', 'fee_category', 'fee_charge_type', 'fee_amount', 'fee_action', 'fee_action_details',
  'fee_basis', 'fee_participant', 'fee_participant_details', 'fee_monthly_volume',
  'fee_monthly_volume_criteria', 'fee_symbol_classification', 'fee_symbol_type', 'fee_trade_type',
  'fee_symbol', 'fee_excluded_symbols', 'fee_conditions', 'fee_exclusions', 'fee_notes', 'fee_extra_info',
  'relationships',
];

const RECORDS = 300;
const dataset = new ResultsDataset({ seed: 3, records: RECORDS });
const records = new Record2026Builder(dataset);
const ALL = { source: true, footnotes: true, definitions: true };

describe('the 2026 transform of a record', () => {
  it('has exactly the 2026 keys, in order, with and without the citations', () => {
    for (let index = 0; index < RECORDS; index++) {
      expect(Object.keys(records.build(index, NO_INCLUDES))).toEqual(KEYS_2026);
      expect(Object.keys(records.build(index, ALL))).toEqual(KEYS_2026);
    }
  });

  it('is its interface twin: the same id, version, amount and text', () => {
    const twins = new RecordBuilder(dataset);
    for (let index = 0; index < RECORDS; index++) {
      const twin = twins.build(index);
      expect(records.build(index, NO_INCLUDES)).toMatchObject({
        record_id: twin.id,
        version_id: twin.version_id,
        exchange_name: twin.exchange_name.toLowerCase(),
        fee_amount: twin.fee_amount,
        fee_charge_type: twin.fee_charge_type,
        fee_conditions: twin.fee_conditions,
        fee_notes: twin.fee_notes,
      });
    }
  });

  it('finds every record by its id, and nothing by another', () => {
    for (let index = 0; index < RECORDS; index++) expect(records.indexOfId(records.build(index, NO_INCLUDES).record_id)).toBe(index);
    expect(records.indexOfId('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});
