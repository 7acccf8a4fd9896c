import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEE_SCHEDULE_RESULT_FIELDS, FEE_SCHEDULE_RESULT_FIELD_NAMES } from '../../src/api/fields.js';
import type { FeeScheduleResult } from '../../src/api/types.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getAllResults, getExchange, getResults } from './http.js';

const sandbox = useSandbox({ records: 600 });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SCRAPED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;
const CREATED_ON = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

let records: FeeScheduleResult[] = [];
beforeAll(async () => {
  records = (await getAllResults(sandbox.current)).records;
});

function someText(predicate: (text: string) => boolean): boolean {
  return records.some((record) => Object.values(record).some((value) => typeof value === 'string' && predicate(value)));
}

describe('fee schedule results data', () => {
  it('carries every documented field, in the document order', () => {
    for (const record of records) expect(Object.keys(record)).toEqual(FEE_SCHEDULE_RESULT_FIELD_NAMES);
  });

  it('never nulls a non-nullable field, and nulls every nullable field in some records', () => {
    for (const field of FEE_SCHEDULE_RESULT_FIELDS) {
      const nulls = records.filter((record) => record[field.name] === null).length;
      if (field.nullable) {
        expect(nulls, field.name).toBeGreaterThan(0);
        expect(nulls, field.name).toBeLessThan(records.length);
      } else {
        expect(nulls, field.name).toBe(0);
      }
    }
  });

  it('has UUID ids and version_ids, ids unique', () => {
    for (const record of records) {
      expect(record.id).toMatch(UUID);
      expect(record.version_id).toMatch(UUID);
    }
    expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
  });

  it('spells scraped_time with a UTC offset and microseconds, created_on with microseconds and no offset', () => {
    for (const record of records) {
      expect(record.scraped_time).toMatch(SCRAPED_TIME);
      expect(record.created_on).toMatch(CREATED_ON);
    }
  });

  it('has several versions per (exchange, fee_type), each version sharing one scraped_time', () => {
    const versions = new Map<string, Set<string>>();
    const scraped = new Map<string, Set<string>>();
    for (const record of records) {
      const group = `${record.exchange_name}|${record.fee_type.toLowerCase()}`;
      versions.set(group, (versions.get(group) ?? new Set()).add(record.version_id));
      scraped.set(record.version_id, (scraped.get(record.version_id) ?? new Set()).add(record.scraped_time));
    }
    const counts = [...versions.values()].map((set) => set.size);
    expect(counts.filter((count) => count >= 2).length).toBeGreaterThan(counts.length / 2);
    for (const times of scraped.values()) expect(times.size).toBe(1);
  });

  it('has records that carry fee_type OPTION and fee_category Fees And Rebates together', () => {
    expect(records.some((record) => record.fee_type === 'OPTION' && record.fee_category === 'Fees And Rebates')).toBe(true);
    expect(records.some((record) => record.fee_type === 'Option')).toBe(true);
    expect(records.some((record) => record.fee_category === 'Fee And Rebates')).toBe(true);
  });

  it('shows rebates in parentheses in fee_amount', () => {
    expect(records.some((record) => /^\(\$\d+\.\d+\)$/.test(record.fee_amount))).toBe(true);
  });

  it('has text that breaks naive tools', () => {
    const checks: Record<string, (text: string) => boolean> = {
      comma: (text) => text.includes(','),
      'double quote': (text) => text.includes('"'),
      'bare LF': (text) => /[^\r]\n/.test(text),
      CRLF: (text) => text.includes('\r\n'),
      tab: (text) => text.includes('\t'),
      'non-ASCII letter': (text) => /[äöüéçłå]/i.test(text),
      emoji: (text) => /\p{Extended_Pictographic}/u.test(text),
      fullwidth: (text) => /[\uFF01-\uFF5E]/.test(text),
      CJK: (text) => /\p{Script=Han}/u.test(text),
      'several KB': (text) => text.length >= 2048,
    };
    for (const [name, check] of Object.entries(checks)) expect(someText(check), name).toBe(true);
  });

  it('has empty strings distinct from null', () => {
    expect(records.some((record) => record.fee_notes === '')).toBe(true);
    expect(records.some((record) => record.fee_notes === null)).toBe(true);
    expect(records.some((record) => record.fee_symbol === '')).toBe(true);
  });
});

describe('determinism', () => {
  const others: RunningSandbox[] = [];
  afterAll(async () => {
    await Promise.all(others.map((other) => other.close()));
  });

  async function snapshot(target: RunningSandbox): Promise<string> {
    const page = await getResults(target, { query: { page_size: 100, page_number: 2, order_by: 'supplier_name' } });
    const fees = await getExchange(target, 'NYSE', 'historical');
    const rules = await getExchange(target, 'LSE', 'rules');
    const orderTypes = await getExchange(target, 'IEX', 'orderTypes');
    return [JSON.stringify(page.body.data), fees.text, rules.text, orderTypes.text].join('\n');
  }

  it('serves the same bytes for the same seed', async () => {
    const twin = await startSandbox({ port: 0, records: 600 });
    others.push(twin);
    expect(await snapshot(twin)).toBe(await snapshot(sandbox.current));
  });

  it('serves different data for another seed', async () => {
    const other = await startSandbox({ port: 0, records: 600, seed: 2 });
    others.push(other);
    const [a, b] = [await snapshot(other), await snapshot(sandbox.current)];
    expect(a).not.toBe(b);
    const ids = (text: string) => (JSON.parse(text.split('\n')[0]!) as FeeScheduleResult[]).map((record) => record.id);
    expect(ids(a).filter((id) => ids(b).includes(id))).toEqual([]);
  });
});
