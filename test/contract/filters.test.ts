import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { getAllResults, getResults, type Query } from './http.js';

const sandbox = useSandbox();

async function total(query: Query): Promise<number> {
  const { status, body } = await getResults(sandbox.current, { query: { page_size: 1, ...query } });
  expect(status).toBe(200);
  return body.total_records;
}

describe('results filters', () => {
  it('ORs the values of a repeated parameter', async () => {
    const make = await total({ fee_action: 'Make' });
    const take = await total({ fee_action: 'Take' });
    expect(make).toBeGreaterThan(0);
    expect(take).toBeGreaterThan(0);
    expect(await total({ fee_action: ['Make', 'Take'] })).toBe(make + take);
  });

  it('ANDs different parameters', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { exchange_name: 'NASDAQ', fee_action: 'Make' } });
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record.exchange_name).toBe('NASDAQ');
      expect(record.fee_action).toBe('Make');
    }
  });

  it('filters exchange_name by exchange identifier, OR across repeats', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { exchange_name: ['NYSE', 'IEX'] } });
    expect(new Set(records.map((record) => record.exchange_name))).toEqual(new Set(['NYSE', 'IEX']));
  });

  it('filters supplier_name by the exchange full name', async () => {
    const byName = await getAllResults(sandbox.current, { query: { supplier_name: 'New York Stock Exchange' } });
    const byId = await getAllResults(sandbox.current, { query: { exchange_name: 'NYSE' } });
    expect(byName.records.length).toBeGreaterThan(0);
    expect(byName.records).toEqual(byId.records);
  });

  it('matches fee_type case-insensitively: Option finds records that carry OPTION', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { fee_type: 'Option' } });
    const spellings = new Set(records.map((record) => record.fee_type));
    expect(spellings).toEqual(new Set(['Option', 'OPTION']));
    expect(await total({ fee_type: 'option' })).toBe(records.length);
    expect(await total({ fee_type: 'OPTION' })).toBe(records.length);
  });

  it('matches fee_category Fee And Rebates to records that carry Fees And Rebates', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { fee_category: 'Fee And Rebates' } });
    expect(new Set(records.map((record) => record.fee_category))).toEqual(new Set(['Fee And Rebates', 'Fees And Rebates']));
    expect(await total({ fee_category: 'fee and rebates' })).toBe(records.length);
  });

  it('matches every enumerated filter case-insensitively', async () => {
    const query: Query = {
      fee_action: 'Make',
      fee_participant: 'Market Maker',
      fee_symbol_classification: 'Equity',
      fee_symbol_type: 'Penny',
      fee_trade_type: 'Simple Order',
    };
    const shouted = Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value).toUpperCase()]));
    const expected = await total(query);
    expect(expected).toBeGreaterThan(0);
    expect(await total(shouted)).toBe(expected);
  });

  it('finds nothing for an unknown enumerated value, without an error', async () => {
    const { status, body } = await getResults(sandbox.current, { query: { fee_type: 'Futures' } });
    expect(status).toBe(200);
    expect(body.total_records).toBe(0);
    expect(body.total_pages).toBe(0);
    expect(body.data).toEqual([]);
  });

  it('finds nothing for an unknown exchange_name, without an error', async () => {
    expect(await total({ exchange_name: 'NO_SUCH_VENUE' })).toBe(0);
  });

  it('never matches a null fee_trade_type', async () => {
    const { records } = await getAllResults(sandbox.current, {
      query: { fee_trade_type: ['Index Options', 'Multiply Traded Options', 'Simple Order', 'Complex Order'] },
    });
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => record.fee_trade_type !== null)).toBe(true);
    expect(records.length).toBeLessThan(await total({}));
  });
});

describe('date filters', () => {
  it('start_date and end_date are inclusive and compare the date of scraped_time', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { exchange_name: 'NYSE' } });
    const day = records[Math.floor(records.length / 2)]!.scraped_time.slice(0, 10);
    const sameDay = records.filter((record) => record.scraped_time.startsWith(day));
    const { records: found } = await getAllResults(sandbox.current, {
      query: { exchange_name: 'NYSE', start_date: day, end_date: day },
    });
    expect(found.length).toBe(sameDay.length);
    expect(found.map((record) => record.id).sort()).toEqual(sameDay.map((record) => record.id).sort());
  });

  it('start_date alone keeps records scraped on or after it', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { exchange_name: 'NASDAQ' } });
    const day = records[Math.floor(records.length / 3)]!.scraped_time.slice(0, 10);
    const { records: found } = await getAllResults(sandbox.current, { query: { exchange_name: 'NASDAQ', start_date: day } });
    expect(found.length).toBe(records.filter((record) => record.scraped_time.slice(0, 10) >= day).length);
    expect(found.length).toBeLessThan(records.length);
  });

  it('end_date alone keeps records scraped on or before it', async () => {
    const { records } = await getAllResults(sandbox.current, { query: { exchange_name: 'NASDAQ' } });
    const day = records[Math.floor(records.length / 3)]!.scraped_time.slice(0, 10);
    const { records: found } = await getAllResults(sandbox.current, { query: { exchange_name: 'NASDAQ', end_date: day } });
    expect(found.length).toBe(records.filter((record) => record.scraped_time.slice(0, 10) <= day).length);
    expect(found.length).toBeGreaterThan(0);
  });

  it('an end_date before the start_date finds nothing', async () => {
    expect(await total({ start_date: '2024-06-01', end_date: '2024-05-31' })).toBe(0);
  });
});

describe('latest_only', () => {
  it('keeps only the newest version per (exchange, fee_type), fee_type compared case-insensitively', async () => {
    const { records: all } = await getAllResults(sandbox.current, { query: { exchange_name: ['NASDAQ', 'CBOE', 'MIAX', 'NYSE'] } });
    const newest = new Map<string, { version: string; scraped: string }>();
    for (const record of all) {
      const group = `${record.exchange_name}|${record.fee_type.toLowerCase()}`;
      const known = newest.get(group);
      if (!known || record.scraped_time > known.scraped) newest.set(group, { version: record.version_id, scraped: record.scraped_time });
    }
    const { records: latest } = await getAllResults(sandbox.current, {
      query: { exchange_name: ['NASDAQ', 'CBOE', 'MIAX', 'NYSE'], latest_only: true },
    });
    expect(latest.length).toBeGreaterThan(0);
    expect(latest.length).toBeLessThan(all.length);
    expect(new Set(latest.map((record) => record.version_id))).toEqual(new Set([...newest.values()].map((entry) => entry.version)));
    expect(latest.length).toBe(all.filter((record) => latest.some((kept) => kept.version_id === record.version_id)).length);
  });

  it('latest_only=false is the same as no latest_only', async () => {
    expect(await total({ latest_only: false })).toBe(await total({}));
  });
});
