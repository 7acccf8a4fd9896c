import type { RatesAtVolume } from '../../api/tiers.js';
import type { ExchangeFeeSchedule, FeeTier } from '../../api/types.js';
import type { OutputTarget } from '../exporter.js';
import { type GridCell, renderGrid, renderKeyValueTable } from '../grid.js';
import { formatFee, formatNumber, formatRate } from './format.js';

/** A tier's maker rebate is negative by the document; a positive value would be a fee, and says so. */
export function makerRebateText(value: number): string {
  const text = formatRate(value);
  return value > 0 ? `${text} (fee)` : text;
}

function makerRebate(value: number): GridCell {
  return { text: makerRebateText(value), style: value > 0 ? 'yellow' : 'green' };
}

/** A schedule's tiers, by increasing volume. */
export function tiersByVolume(fees: ExchangeFeeSchedule): [name: string, tier: FeeTier][] {
  return Object.entries(fees.fee_schedule.tier_thresholds).sort(([, a], [, b]) => a.volume - b.volume);
}

/** `at_volume`, which `fees --volume` adds (src/api/tiers.ts): the key/value row that says what applies there. */
function atVolumeRow(fees: ExchangeFeeSchedule & { at_volume?: RatesAtVolume }, target: OutputTarget): [string, string][] {
  const at = fees.at_volume;
  if (!at) return [];
  const tier = at.tier ?? 'no tier reached';
  return [[`At ${formatNumber(at.volume, target)} a month`, `${tier}: maker ${formatRate(at.maker)}, taker ${formatRate(at.taker)}`]];
}

/**
 * `mkt fees`: the summary (with `fees --volume`, what applies at that volume), then the tiers
 * by increasing volume, rates as the service wrote them.
 */
export function renderFeesView(fees: ExchangeFeeSchedule & { at_volume?: RatesAtVolume }, target: OutputTarget): string {
  const summary = renderKeyValueTable(
    [
      ['Exchange', fees.exchange],
      ['Effective date', fees.effective_date],
      ['Maker fee', formatFee(fees.fee_schedule.maker_fee)],
      ['Taker fee', formatFee(fees.fee_schedule.taker_fee)],
      ['Last updated', fees.last_updated],
      ...atVolumeRow(fees, target),
    ],
    target,
  );
  const tiers = tiersByVolume(fees);
  if (tiers.length === 0) return summary;
  const grid = renderGrid(
    [
      { header: 'Tier', fit: 'whole' },
      { header: 'Monthly volume', align: 'right', fit: 'whole' },
      { header: 'Maker rebate', align: 'right', fit: 'whole' },
    ],
    tiers.map(([name, tier]) => [name, formatNumber(tier.volume, target), makerRebate(tier.maker_rebate)]),
    target,
  );
  return `${summary}\nTiers by volume\n${grid}`;
}
