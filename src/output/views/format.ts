import type { OutputTarget } from '../exporter.js';
import type { GridCell } from '../grid.js';

/** A number as people read it: grouped digits on a terminal, the plain value elsewhere. */
export function formatNumber(value: number, target: OutputTarget): string {
  return target.isTTY ? value.toLocaleString('en-US', { maximumFractionDigits: 10 }) : String(value);
}

/** A fee where a negative value is a rebate: shown as `rebate 0.002`, never as a negative fee. */
export function formatFee(value: number, target: OutputTarget): GridCell {
  if (value < 0) return { text: `rebate ${formatNumber(-value, target)}`, style: 'green' };
  return formatNumber(value, target);
}

/** A fraction as a percentage: 0.07 → `7%`, without floating-point noise. */
export function formatPercent(fraction: number, target: OutputTarget): string {
  return `${formatNumber(Number((fraction * 100).toFixed(6)), target)}%`;
}
