import type { ExchangeRules } from '../../api/types.js';
import type { OutputTarget } from '../exporter.js';
import { renderKeyValueTable } from '../grid.js';
import { formatNumber, formatPercent, formatRate } from './format.js';

/** `mkt rules`: trading hours, the tick size as written, the lot size, circuit breakers as percentages of a decline. */
export function renderRulesView(rules: ExchangeRules, target: OutputTarget): string {
  const { trading_hours: hours, circuit_breakers: breakers } = rules.rules;
  return renderKeyValueTable(
    [
      ['Exchange', rules.exchange],
      ['Effective date', rules.effective_date],
      ['Pre-market', `from ${hours.pre_market}`],
      ['Regular hours', hours.regular],
      ['After hours', hours.after_hours],
      ['Tick size', formatRate(rules.rules.tick_size)],
      ['Lot size', formatNumber(rules.rules.lot_size, target)],
      ['Circuit breaker level 1', formatPercent(breakers.level_1, target)],
      ['Circuit breaker level 2', formatPercent(breakers.level_2, target)],
      ['Circuit breaker level 3', formatPercent(breakers.level_3, target)],
      ['Last updated', rules.last_updated],
    ],
    target,
  );
}
