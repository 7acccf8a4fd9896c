import type { ExchangeFeeSchedule } from '../../api/types.js';
import type { OutputTarget } from '../exporter.js';
import { type GridCell, renderGrid, renderKeyValueTable } from '../grid.js';
import { formatFee, formatNumber } from './format.js';

/** A tier's maker rebate is negative by the document; a positive value would be a fee. */
function makerRebate(value: number, target: OutputTarget): GridCell {
  if (value > 0) return { text: `fee ${formatNumber(value, target)}`, style: 'yellow' };
  // abs, not negation: a rebate of 0 would print as -0 on a terminal.
  return { text: formatNumber(Math.abs(value), target), style: 'green' };
}

/** `mkt fees`: the summary, then the tiers by increasing volume, rebates shown as rebates. */
export function renderFeesView(fees: ExchangeFeeSchedule, target: OutputTarget): string {
  const summary = renderKeyValueTable(
    [
      ['Exchange', fees.exchange],
      ['Effective date', fees.effective_date],
      ['Maker fee', formatFee(fees.fee_schedule.maker_fee, target)],
      ['Taker fee', formatFee(fees.fee_schedule.taker_fee, target)],
      ['Last updated', fees.last_updated],
    ],
    target,
  );
  const tiers = Object.entries(fees.fee_schedule.tier_thresholds).sort(([, a], [, b]) => a.volume - b.volume);
  if (tiers.length === 0) return summary;
  const grid = renderGrid(
    [{ header: 'Tier' }, { header: 'Monthly volume', align: 'right' }, { header: 'Maker rebate', align: 'right' }],
    tiers.map(([name, tier]) => [name, formatNumber(tier.volume, target), makerRebate(tier.maker_rebate, target)]),
    target,
  );
  return `${summary}\nTiers by volume\n${grid}`;
}
