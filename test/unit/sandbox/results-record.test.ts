import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../../src/api/fields.js';
import type { FeeScheduleResult } from '../../../src/api/types.js';
import { ResultsDataset } from '../../../src/sandbox/results-dataset.js';
import { RecordBuilder } from '../../../src/sandbox/results-record.js';
import { addVersions, getAllResults, getResults, type Query } from '../../contract/http.js';
import { RUN_STAMP, useSandbox } from '../../helpers/sandbox.js';

const SEED = 7;
const RECORDS = 2000;
const sandbox = useSandbox({ seed: SEED, records: RECORDS });

const byId = (a: FeeScheduleResult, b: FeeScheduleResult): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('the sandbox builds records as objects', () => {
  it('each in the service document’s field order, and a seed serves exactly the records built from it', async () => {
    const builder = new RecordBuilder(new ResultsDataset({ seed: SEED, records: RECORDS }));
    const built = Array.from({ length: RECORDS }, (_, index) => builder.build(index));
    for (const record of built) expect(Object.keys(record)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
    const { records: served } = await getAllResults(sandbox.current);
    expect(served.sort(byId)).toEqual(built.sort(byId));
  });

  it('serves, for a seed, the same bytes in every run, the run stamp of added ids aside', async () => {
    const queries: Query[] = [
      { page_size: 100 },
      { page_size: 100, page_number: 7, order_by: 'supplier_name', order_dir: 'asc' },
      { page_size: 100, fee_type: 'Option', fee_category: 'Fee And Rebates' },
      { page_size: 100, exchange_name: ['NYSE', 'CBOE'], latest_only: true },
      // The records of added versions: copied text, new ids, revised amounts.
      { page_size: 100, order_by: 'created_on', order_dir: 'desc' },
    ];
    const hash = createHash('sha256');
    for (const [n, query] of queries.entries()) {
      if (n === queries.length - 1) {
        await addVersions(sandbox.current, { groups: 3 });
      }
      const { status, text } = await getResults(sandbox.current, { query });
      expect(status).toBe(200);
      hash.update(text.replace(/"query_time":[^,}]+/, '"query_time":0').replace(RUN_STAMP, 'RUN-'));
    }
    expect(hash.digest('hex')).toBe('0b0eda45ddc30fd781652f71be6bb629b4974fbaeb9a0e76da21f2df13fb1c93');
  });
});
