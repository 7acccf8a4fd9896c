/*
 * Tiers and venues (shared/cli-contract.md): which tier of a fee schedule applies at a monthly
 * volume, and the rates there. The schedule is the server's, so nothing in it is trusted: a tier
 * without a numeric volume and rebate is left out, and a schedule without its two fees is refused.
 */

import { isJsonObject } from '../core/json-object.js';

/** The rates of a schedule at one monthly volume: `at_volume` in `fees --volume`, a row of `compare`. */
export interface RatesAtVolume {
  volume: number;
  /** The tier's name (`tier_2`), or null when no tier's threshold is reached. */
  tier: string | null;
  maker: number;
  taker: number;
}

const SUFFIXES: Readonly<Record<string, number>> = { K: 1e3, M: 1e6, B: 1e9 };

/**
 * `--volume`: `50000000`, `5e7`, `50M`, `2.5B`, `750K` and `1,000,000` (commas in groups of
 * three). A monthly volume is a whole number of shares or contracts, at most 2⁵³ − 1; undefined
 * for anything else.
 */
export function parseVolume(text: string): number | undefined {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:e\d{1,3})?)([KMB])?$/i.exec(text.trim());
  if (!match) return undefined;
  const [, number = '', suffix] = match;
  const value = Number(number.replaceAll(',', '')) * (suffix ? (SUFFIXES[suffix.toUpperCase()] as number) : 1);
  // 2.5B is exact; 1.0000001K is not a whole number of shares.
  const whole = Math.round(value);
  return Number.isSafeInteger(whole) && Math.abs(value - whole) < 1e-6 ? whole : undefined;
}

const isRate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The number in a tier's name, for ordering `tier_2` before `tier_10`. */
const tierNumber = (name: string): number => Number(/(\d+)$/.exec(name)?.[1] ?? Number.POSITIVE_INFINITY);

/**
 * The rates at `volume`: the tier with the highest `volume` not above it (of two with one
 * threshold, the higher-numbered), applied to the whole volume; its `maker_rebate` is the maker
 * rate. With no tier reached, the maker rate is `maker_fee`. The taker rate is `taker_fee`.
 * Undefined when the schedule lacks a numeric maker_fee or taker_fee.
 */
export function ratesAtVolume(schedule: unknown, volume: number): RatesAtVolume | undefined {
  if (typeof schedule !== 'object' || schedule === null) return undefined;
  const { maker_fee: makerFee, taker_fee: takerFee, tier_thresholds: tiers } = schedule as Record<string, unknown>;
  if (!isRate(makerFee) || !isRate(takerFee)) return undefined;
  let applied: { name: string; volume: number; maker: number } | undefined;
  const entries = typeof tiers === 'object' && tiers !== null ? Object.entries(tiers) : [];
  for (const [name, tier] of entries.sort(([a], [b]) => tierNumber(a) - tierNumber(b))) {
    const { volume: threshold, maker_rebate: rebate } = (tier ?? {}) as Record<string, unknown>;
    if (!isRate(threshold) || !isRate(rebate) || threshold > volume) continue;
    if (!applied || threshold >= applied.volume) applied = { name, volume: threshold, maker: rebate };
  }
  return { volume, tier: applied?.name ?? null, maker: applied?.maker ?? makerFee, taker: takerFee };
}

/**
 * `F × maker + (1 − F) × taker`, rounded to 12 significant digits so that binary floating point
 * does not show through (0.5 × −0.25 + 0.5 × 0.3 is 0.025, not 0.024999999999999994).
 */
export function blendedRate(rates: RatesAtVolume, makeShare: number): number {
  return Number((makeShare * rates.maker + (1 - makeShare) * rates.taker).toPrecision(12));
}

/** A schedule with its tier_thresholds as a list, `{"tier": "tier_1", "volume", "maker_rebate"}`, in the service's order. */
function withTierList(schedule: unknown): unknown {
  if (!isJsonObject(schedule) || !isJsonObject(schedule.fee_schedule) || !isJsonObject(schedule.fee_schedule.tier_thresholds)) return schedule;
  // The name first, and kept should a tier hold a field of that name.
  const tiers = Object.entries(schedule.fee_schedule.tier_thresholds).map(([tier, fields]) => Object.assign({ tier }, isJsonObject(fields) ? fields : {}, { tier }));
  return { ...schedule, fee_schedule: { ...schedule.fee_schedule, tier_thresholds: tiers } };
}

/**
 * The answer of `fees` (a schedule) or `historical` (its fee_schedules) with every schedule's
 * tiers as a list: the shape whose columns the exports declare, flattened to one row per tier,
 * so that every venue's file has the same columns whatever its number of tiers. A part not of
 * a schedule's shape is left as it is.
 */
export function withTierLists(body: Record<string, unknown>): Record<string, unknown> {
  const { fee_schedules: schedules } = body;
  if (Array.isArray(schedules)) return { ...body, fee_schedules: schedules.map(withTierList) };
  return withTierList(body) as Record<string, unknown>;
}
