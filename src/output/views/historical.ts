import type { HistoricalFeeSchedules } from '../../api/types.js';
import type { OutputTarget } from '../exporter.js';
import { type GridCell, renderGrid, renderKeyValueTable } from '../grid.js';
import { formatNumber, formatRate } from './format.js';
import { makerRebateText, tiersByVolume } from './fees.js';

/** The period asked for, as the service echoed it (null: not given). */
function period(start: string | null, end: string | null): string {
  const given = (date: string | null): date is string => typeof date === 'string';
  if (given(start) && given(end)) return `${start} to ${end}`;
  if (given(start)) return `from ${start}`;
  if (given(end)) return `until ${end}`;
  return 'every schedule kept';
}

/** A fee as written, green when negative (a rebate). */
function fee(value: number): GridCell {
  const text = formatRate(value);
  return value < 0 ? { text, style: 'green' } : text;
}

/**
 * `mkt historical`: one row per effective date, oldest first: the maker and taker fees, and
 * the tiers by volume, one a line, beside their maker rebates. Rates as the service wrote
 * them (negative: a rebate, in green). `Last updated` is left out first on a narrow terminal.
 */
export function renderHistoricalView(history: HistoricalFeeSchedules, target: OutputTarget): string {
  const summary = renderKeyValueTable(
    [
      ['Exchange', history.exchange],
      ['Period', period(history.start_date, history.end_date)],
    ],
    target,
  );
  const schedules = [...history.fee_schedules].sort((a, b) => a.effective_date.localeCompare(b.effective_date));
  if (schedules.length === 0) return summary;
  const grid = renderGrid(
    [
      { header: 'Effective', fit: 'whole' },
      { header: 'Maker fee', align: 'right', fit: 'whole' },
      { header: 'Taker fee', align: 'right', fit: 'whole' },
      { header: 'Tier volume', align: 'right', fit: 'whole' },
      { header: 'Maker rebate', align: 'right', fit: 'whole' },
      { header: 'Last updated', fit: 'whole', priority: 1 },
    ],
    schedules.map((schedule): GridCell[] => {
      const tiers = tiersByVolume(schedule);
      return [
        schedule.effective_date,
        fee(schedule.fee_schedule.maker_fee),
        fee(schedule.fee_schedule.taker_fee),
        tiers.map(([, tier]) => formatNumber(tier.volume, target)),
        tiers.map(([, tier]) => makerRebateText(tier.maker_rebate)),
        schedule.last_updated,
      ];
    }),
    target,
  );
  return `${summary}\n${grid}`;
}
