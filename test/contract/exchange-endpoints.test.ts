import { describe, expect, it } from 'vitest';
import type { ExchangeFeeSchedule, ExchangeOrderTypes, ExchangeRules, HistoricalFeeSchedules } from '../../src/api/types.js';
import { useSandbox } from '../helpers/sandbox.js';
import { getAllResults, getExchange } from './http.js';

const sandbox = useSandbox();

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ZULU = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const TIME = /^\d{2}:\d{2}:\d{2}$/;
const TIME_RANGE = /^\d{2}:\d{2}:\d{2}-\d{2}:\d{2}:\d{2}$/;

describe('venues', () => {
  it('has more than 40 exchanges, including NYSE, CBOE, IEX and NASDAQ, each with a fee schedule', async () => {
    const { records } = await getAllResults(sandbox.current);
    const exchanges = new Set(records.map((record) => record.exchange_name));
    expect(exchanges.size).toBeGreaterThan(40);
    for (const required of ['NYSE', 'CBOE', 'IEX', 'NASDAQ']) expect(exchanges).toContain(required);
    for (const exchange of exchanges) {
      expect((await getExchange(sandbox.current, exchange, 'fees')).status, exchange).toBe(200);
    }
  });

  it('answers an unknown exchange with 404 and a JSON detail', async () => {
    const { status, body } = await getExchange(sandbox.current, 'NO_SUCH_VENUE', 'rules');
    expect(status).toBe(404);
    expect(body).toStrictEqual({ detail: "Exchange 'NO_SUCH_VENUE' not found." });
  });

  it('matches the exchange identifier exactly: nyse is not NYSE', async () => {
    const { status } = await getExchange(sandbox.current, 'nyse', 'fees');
    expect(status).toBe(404);
  });
});

describe('GET /exchanges/{exchange}/fees', () => {
  it('returns a schedule with 1 to 5 tiers named tier_<n>, maker rebates negative', async () => {
    const { status, body } = await getExchange<ExchangeFeeSchedule>(sandbox.current, 'NASDAQ', 'fees');
    expect(status).toBe(200);
    expect(body.exchange).toBe('NASDAQ');
    expect(body.effective_date).toMatch(DATE);
    expect(body.last_updated).toMatch(ZULU);
    expect(typeof body.fee_schedule.maker_fee).toBe('number');
    expect(typeof body.fee_schedule.taker_fee).toBe('number');
    const tiers = Object.entries(body.fee_schedule.tier_thresholds);
    expect(tiers.length).toBeGreaterThanOrEqual(1);
    expect(tiers.length).toBeLessThanOrEqual(5);
    for (const [name, tier] of tiers) {
      expect(name).toMatch(/^tier_\d+$/);
      expect(tier.volume).toBeGreaterThan(0);
      expect(tier.maker_rebate).toBeLessThan(0);
    }
  });
});

describe('GET /exchanges/{exchange}/rules', () => {
  it('returns trading hours in the documented formats, tick and lot sizes, circuit breakers', async () => {
    const { status, body } = await getExchange<ExchangeRules>(sandbox.current, 'NYSE', 'rules');
    expect(status).toBe(200);
    const { trading_hours, tick_size, lot_size, circuit_breakers } = body.rules;
    expect(trading_hours.pre_market).toMatch(TIME);
    expect(trading_hours.regular).toMatch(TIME_RANGE);
    expect(trading_hours.after_hours).toMatch(TIME_RANGE);
    expect(tick_size).toBeGreaterThan(0);
    expect(Number.isInteger(lot_size)).toBe(true);
    for (const level of [circuit_breakers.level_1, circuit_breakers.level_2, circuit_breakers.level_3]) {
      expect(level).toBeGreaterThan(0);
      expect(level).toBeLessThan(1);
    }
    expect(body.effective_date).toMatch(DATE);
    expect(body.last_updated).toMatch(ZULU);
  });
});

describe('GET /exchanges/{exchange}/order-types', () => {
  it('lists LIMIT, MARKET, STOP, IOC and FOK with a description and a supported flag', async () => {
    const { status, body } = await getExchange<ExchangeOrderTypes>(sandbox.current, 'CBOE', 'orderTypes');
    expect(status).toBe(200);
    expect(body.order_types.map((orderType) => orderType.type)).toEqual(['LIMIT', 'MARKET', 'STOP', 'IOC', 'FOK']);
    for (const orderType of body.order_types) {
      expect(orderType.description.length).toBeGreaterThan(0);
      expect(typeof orderType.supported).toBe('boolean');
    }
    expect(body.last_updated).toMatch(ZULU);
  });

  it('has venues that do not support some order types', async () => {
    const { records } = await getAllResults(sandbox.current);
    const exchanges = [...new Set(records.map((record) => record.exchange_name))];
    const supported = await Promise.all(
      exchanges.map(async (exchange) => (await getExchange<ExchangeOrderTypes>(sandbox.current, exchange, 'orderTypes')).body),
    );
    const flags = supported.flatMap((body) => body.order_types.map((orderType) => orderType.supported));
    expect(flags).toContain(true);
    expect(flags).toContain(false);
  });
});

describe('GET /exchanges/{exchange}/fees/historical', () => {
  it('without dates returns the whole history, oldest first, ending with the current schedule', async () => {
    const current = await getExchange<ExchangeFeeSchedule>(sandbox.current, 'NYSE', 'fees');
    const { status, body } = await getExchange<HistoricalFeeSchedules>(sandbox.current, 'NYSE', 'historical');
    expect(status).toBe(200);
    expect(body.exchange).toBe('NYSE');
    expect(body.start_date).toBeNull();
    expect(body.end_date).toBeNull();
    expect(body.fee_schedules.length).toBeGreaterThanOrEqual(3);
    const dates = body.fee_schedules.map((schedule) => schedule.effective_date);
    expect(dates).toEqual([...dates].sort());
    expect(body.fee_schedules.at(-1)).toEqual(current.body);
  });

  it('with dates returns the schedules in force during the period and echoes the dates', async () => {
    const all = (await getExchange<HistoricalFeeSchedules>(sandbox.current, 'NYSE', 'historical')).body.fee_schedules;
    const second = all[1]!.effective_date;
    const { body } = await getExchange<HistoricalFeeSchedules>(sandbox.current, 'NYSE', 'historical', {
      query: { start_date: second, end_date: second },
    });
    expect(body.start_date).toBe(second);
    expect(body.end_date).toBe(second);
    expect(body.fee_schedules).toEqual([all[1]]);
  });

  it('rejects a malformed date with a FastAPI-style 422', async () => {
    const { status, body } = await getExchange(sandbox.current, 'NYSE', 'historical', { query: { start_date: '2024-13-01' } });
    expect(status).toBe(422);
    expect(body).toStrictEqual({
      detail: [
        {
          type: 'date_from_datetime_parsing',
          loc: ['query', 'start_date'],
          msg: 'Input should be a valid date in the format YYYY-MM-DD',
          input: '2024-13-01',
        },
      ],
    });
  });
});
