import type {
  ExchangeFeeSchedule,
  ExchangeOrderTypes,
  ExchangeRules,
  FeeTier,
  OrderType,
  TradingHours,
} from '../api/types.js';
import { Random } from './random.js';
import { DAY_MS, formatDate, formatZulu, HISTORY_END_MS, HISTORY_START_MS } from './time.js';
import { type Region, type Venue, venueAt } from './venues.js';

/** Seed salts, one per resource, so that resources of one venue do not share a stream. */
const FEES = 1;
const RULES = 2;
const ORDER_TYPES = 3;

interface RegionFacts {
  hours: TradingHours;
  tickSize: number;
  lotSize: number;
}

const REGION_FACTS: Record<Region, RegionFacts> = {
  us: { hours: { pre_market: '04:00:00', regular: '09:30:00-16:00:00', after_hours: '16:00:00-20:00:00' }, tickSize: 0.01, lotSize: 100 },
  ca: { hours: { pre_market: '07:00:00', regular: '09:30:00-16:00:00', after_hours: '16:15:00-17:00:00' }, tickSize: 0.01, lotSize: 100 },
  uk: { hours: { pre_market: '07:50:00', regular: '08:00:00-16:30:00', after_hours: '16:30:00-17:15:00' }, tickSize: 0.0025, lotSize: 1 },
  eu: { hours: { pre_market: '07:30:00', regular: '09:00:00-17:30:00', after_hours: '17:30:00-20:00:00' }, tickSize: 0.001, lotSize: 1 },
  ch: { hours: { pre_market: '06:00:00', regular: '09:00:00-17:20:00', after_hours: '17:20:00-17:30:00' }, tickSize: 0.01, lotSize: 1 },
  jp: { hours: { pre_market: '08:00:00', regular: '09:00:00-15:30:00', after_hours: '15:30:00-16:00:00' }, tickSize: 1, lotSize: 100 },
  hk: { hours: { pre_market: '09:00:00', regular: '09:30:00-16:00:00', after_hours: '16:00:00-16:10:00' }, tickSize: 0.01, lotSize: 100 },
  sg: { hours: { pre_market: '08:30:00', regular: '09:00:00-17:00:00', after_hours: '17:00:00-17:16:00' }, tickSize: 0.005, lotSize: 100 },
  au: { hours: { pre_market: '07:00:00', regular: '10:00:00-16:00:00', after_hours: '16:10:00-17:00:00' }, tickSize: 0.005, lotSize: 1 },
  in: { hours: { pre_market: '09:00:00', regular: '09:15:00-15:30:00', after_hours: '15:40:00-16:00:00' }, tickSize: 0.05, lotSize: 1 },
  kr: { hours: { pre_market: '08:30:00', regular: '09:00:00-15:30:00', after_hours: '15:40:00-18:00:00' }, tickSize: 1, lotSize: 1 },
  br: { hours: { pre_market: '09:45:00', regular: '10:00:00-17:00:00', after_hours: '17:30:00-18:00:00' }, tickSize: 0.01, lotSize: 100 },
  za: { hours: { pre_market: '08:30:00', regular: '09:00:00-17:00:00', after_hours: '17:00:00-17:15:00' }, tickSize: 0.01, lotSize: 1 },
};

const ORDER_TYPE_FACTS: readonly { type: string; description: string; supportedOdds: number }[] = [
  { type: 'LIMIT', description: 'Executes at the limit price or better.', supportedOdds: 1 },
  { type: 'MARKET', description: 'Executes immediately at the best available price.', supportedOdds: 0.85 },
  { type: 'STOP', description: 'Becomes a market order once the stop price is reached.', supportedOdds: 0.45 },
  { type: 'IOC', description: 'Immediate or cancel: any part not filled at once is cancelled.', supportedOdds: 0.95 },
  { type: 'FOK', description: 'Fill or kill: filled in full at once or cancelled.', supportedOdds: 0.6 },
];

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

/** A moment on a day, between 06:00 and 22:00 UTC, in milliseconds. */
function timeOnDay(random: Random, dayMs: number): number {
  return dayMs + random.int(6 * 3600, 22 * 3600) * 1000;
}

/** Per contract for options-only venues, per share for the others. */
function feeScale(venue: Venue): number {
  return venue.feeTypes.includes('Equity') ? 1 : 100;
}

function tiers(random: Random, venue: Venue, baseRebate: number): Record<string, FeeTier> {
  const count = random.int(1, 5);
  const result: Record<string, FeeTier> = {};
  let volume = random.int(1, 5) * 500_000;
  let rebate = baseRebate;
  for (let n = 1; n <= count; n++) {
    rebate -= random.int(1, 4) * 0.0001 * feeScale(venue);
    result[`tier_${n}`] = { volume, maker_rebate: round(rebate, 5) };
    volume *= random.int(2, 4);
  }
  return result;
}

/** Every fee schedule the venue has had, oldest first; the last is the one in force. */
export function feeScheduleHistory(seed: number, venueIndex: number): ExchangeFeeSchedule[] {
  const venue = venueAt(venueIndex);
  const random = new Random(seed, FEES, venueIndex);
  const count = random.int(3, 6);
  const spanDays = (HISTORY_END_MS - HISTORY_START_MS) / DAY_MS;
  const scale = feeScale(venue);
  // Far enough from zero that the drift below (at most 2 and 1 per schedule) keeps the sign.
  let makerFee = (venue.inverted ? random.int(13, 30) : -random.int(15, 32)) * 0.0001 * scale;
  let takerFee = (venue.inverted ? -random.int(8, 16) : random.int(25, 30)) * 0.0001 * scale;
  const history: ExchangeFeeSchedule[] = [];
  for (let k = 0; k < count; k++) {
    // The first schedule predates the history so that every date in it has one in force.
    const dayMs = HISTORY_START_MS + Math.floor(((k - 0.5 + random.next() * 0.8) * spanDays) / count) * DAY_MS;
    makerFee += random.int(-2, 2) * 0.0001 * scale;
    takerFee += random.int(-1, 1) * 0.0001 * scale;
    const maker = round(makerFee, 5);
    history.push({
      exchange: venue.id,
      effective_date: formatDate(dayMs),
      fee_schedule: {
        maker_fee: maker,
        taker_fee: round(takerFee, 5),
        tier_thresholds: tiers(random, venue, Math.min(maker, 0)),
      },
      last_updated: formatZulu(timeOnDay(random, dayMs - random.int(1, 14) * DAY_MS)),
    });
  }
  return history;
}

/** The schedules in force at some moment between the two days (epoch days, inclusive). */
export function historicalFeeSchedules(
  history: readonly ExchangeFeeSchedule[],
  startDay: number | undefined,
  endDay: number | undefined,
): ExchangeFeeSchedule[] {
  const dayOf = (schedule: ExchangeFeeSchedule) => Date.parse(schedule.effective_date) / DAY_MS;
  return history.filter((schedule, index) => {
    const next = history[index + 1];
    const startsBeforeEnd = endDay === undefined || dayOf(schedule) <= endDay;
    const endsAfterStart = startDay === undefined || next === undefined || dayOf(next) > startDay;
    return startsBeforeEnd && endsAfterStart;
  });
}

export function exchangeRules(seed: number, venueIndex: number): ExchangeRules {
  const venue = venueAt(venueIndex);
  const random = new Random(seed, RULES, venueIndex);
  const facts = REGION_FACTS[venue.region];
  const level1 = random.pick([0.05, 0.07, 0.07, 0.08, 0.1]);
  const effectiveMs = HISTORY_START_MS + random.int(0, (HISTORY_END_MS - HISTORY_START_MS) / DAY_MS) * DAY_MS;
  return {
    exchange: venue.id,
    rules: {
      trading_hours: { ...facts.hours },
      tick_size: facts.tickSize,
      lot_size: facts.lotSize,
      circuit_breakers: { level_1: level1, level_2: round(level1 + 0.06, 2), level_3: round(level1 + 0.13, 2) },
    },
    effective_date: formatDate(effectiveMs),
    last_updated: formatZulu(timeOnDay(random, effectiveMs + random.int(0, 30) * DAY_MS)),
  };
}

export function exchangeOrderTypes(seed: number, venueIndex: number): ExchangeOrderTypes {
  const venue = venueAt(venueIndex);
  const random = new Random(seed, ORDER_TYPES, venueIndex);
  const orderTypes: OrderType[] = ORDER_TYPE_FACTS.map((fact) => ({
    type: fact.type,
    description: fact.description,
    supported: random.chance(fact.supportedOdds),
  }));
  const lastUpdated = HISTORY_END_MS - random.int(0, 365) * DAY_MS;
  return { exchange: venue.id, order_types: orderTypes, last_updated: formatZulu(timeOnDay(random, lastUpdated)) };
}
