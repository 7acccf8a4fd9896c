import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AmountUnit, parseAmount, type ParsedAmount } from '../../src/api/amounts.js';
import type { FeeScheduleResult } from '../../src/api/types.js';
import { DEFAULT_SEED } from '../../src/sandbox/limits.js';
import { ResultsDataset } from '../../src/sandbox/results-dataset.js';
import { RecordBuilder } from '../../src/sandbox/results-record.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getResults } from './http.js';

// Issue 17: the sandbox's amounts cover every rule of the contract's "Fee amounts as numbers",
// so that --parse-amounts meets each of them in every test and demo that reads the sandbox.
const RECORDS = 20_000;
const sandbox = useSandbox({ records: RECORDS });

type Expect = (match: RegExpExecArray) => ParsedAmount;
const amount = (unit: AmountUnit | null, sign = 1): Expect => (match) => ({ value: sign * Number(match[1]!.replaceAll(',', '')), unit });
const none: Expect = () => ({ value: null, unit: null });
const several: Expect = () => ({ value: null, unit: 'USD' });

/** Each way the sandbox writes an amount, and what the contract's rules make of it; written apart from the parser. */
const FORMS: readonly [rule: string, text: RegExp, parsed: Expect][] = [
  ['USD, $ before', /^\$(\d+\.\d+)$/, amount('USD')],
  ['USD, thousands separators', /^\$(\d{1,3}(?:,\d{3})+(?:\.\d\d)?)$/, amount('USD')],
  ['USD, code before', /^USD (\d+\.\d+)$/, amount('USD')],
  ['USD, code after, words', /^(\d+\.\d+) USD per share$/, amount('USD')],
  ['EUR, € before', /^€(\d+\.\d+)$/, amount('EUR')],
  ['EUR, code before', /^EUR (\d+\.\d+)$/, amount('EUR')],
  ['EUR, code after, words', /^(\d+\.\d+) EUR per contract$/, amount('EUR')],
  ['GBP, £ before, words', /^£(\d+\.\d+) per contract$/, amount('GBP')],
  ['GBP, code before, words', /^GBP (\d+\.\d+) per port per month$/, amount('GBP')],
  ['percentage', /^(\d+\.\d+)%$/, amount('%')],
  ['basis points, bps', /^(\d+) bps$/, amount('bps')],
  ['basis points, bp', /^(\d+\.\d) bp$/, amount('bps')],
  ['words, per share', /^\$(\d+\.\d+) per share$/, amount('USD')],
  ['words, per contract', /^\$(\d+\.\d+) per contract$/, amount('USD')],
  ['words, per port per month', /^\$(\d+\.\d+) per port per month$/, amount('USD')],
  ['rebate, currency inside parentheses', /^\(\$(\d+\.\d+)\)$/, amount('USD', -1)],
  ['rebate, currency inside parentheses, words', /^\(\$(\d+\.\d+)\) per share$/, amount('USD', -1)],
  ['rebate, currency outside parentheses', /^\$\((\d+\.\d+)\)$/, amount('USD', -1)],
  ['rebate, parentheses without currency', /^\((\d+\.\d+)\)$/, amount(null, -1)],
  ['rebate, minus sign', /^-\$(\d+\.\d+)$/, amount('USD', -1)],
  ['rebate, minus sign U+2212', /^−€(\d+\.\d+)$/, amount('EUR', -1)],
  ['range, hyphen', /^\$\d+\.\d+ - \$\d+\.\d+$/, several],
  ['range, en dash', /^\$\d+\.\d+ – \$\d+\.\d+$/, several],
  ['if …, otherwise …', /^\$\d+\.\d+ if .+, otherwise \$\d+\.\d+$/, () => ({ value: null, unit: null })],
  ['nothing to pay', /^(?:Free|No charge|NO FEE|waived)$/, () => ({ value: 0, unit: null })],
  ['empty, N/A, TBD, -', /^(?:|N\/A|TBD|-)$/, none],
];

let amounts: string[] = [];
let builder: RecordBuilder;
beforeAll(() => {
  // The sandbox's own builder, as its server builds each record it serves (the first test of
  // test/unit/sandbox/results-record.test.ts): the amounts without two hundred pages of HTTP.
  builder = new RecordBuilder(new ResultsDataset({ seed: DEFAULT_SEED, records: RECORDS }));
  amounts = Array.from({ length: RECORDS }, (_, index) => builder.build(index).fee_amount as string);
});

describe('the sandbox amounts', () => {
  it('are the amounts a sandbox of the default seed serves', async () => {
    const { status, body } = await getResults(sandbox.current, { query: { page_size: 100 } });
    expect(status).toBe(200);
    expect(body.total_records).toBe(RECORDS);
    const built = new Map(Array.from({ length: RECORDS }, (_, index) => [builder.id(index), amounts[index]]));
    const served = (body.data as FeeScheduleResult[]).map((record) => [record.id, record.fee_amount]);
    expect(served).toHaveLength(100);
    expect(served).toEqual(served.map(([id]) => [id, built.get(id as string)]));
  });

  it('are each written in exactly one of the forms, and parse as the contract says', () => {
    const unmatched = new Set<string>();
    const misparsed: unknown[] = [];
    for (const text of amounts) {
      const forms = FORMS.filter(([, pattern]) => pattern.test(text));
      if (forms.length !== 1) {
        unmatched.add(`${JSON.stringify(text)}: ${forms.map(([rule]) => rule).join(', ') || 'no form'}`);
        continue;
      }
      const [[, pattern, parsed]] = forms as [(typeof FORMS)[number]];
      // Compared as one list at the end: an expect for each of thousands of amounts costs more than the parsing.
      const [got, wanted] = [parseAmount(text), parsed(pattern.exec(text)!)];
      if (!isDeepStrictEqual(got, wanted)) misparsed.push({ text, got, wanted });
    }
    expect([...unmatched]).toEqual([]);
    expect(misparsed).toEqual([]);
  });

  it.each(FORMS.map(([rule, pattern]) => [rule, pattern] as const))('include %s', (_, pattern) => {
    expect(amounts.some((text) => pattern.test(text))).toBe(true);
  });

  it('include millions, with two thousands separators', () => {
    expect(amounts).toHaveLength(RECORDS);
    expect(amounts.some((text) => /^\$\d,\d{3},\d{3}$/.test(text))).toBe(true);
  });
});
