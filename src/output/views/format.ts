import type { OutputTarget } from '../exporter.js';
import type { GridCell } from '../grid.js';
import { groupDigits } from '../../core/digits.js';

/** A count as people read it (a volume, a lot size): grouped digits on a terminal, the plain value elsewhere. */
export function formatNumber(value: number, target: OutputTarget): string {
  return target.isTTY ? groupDigits(value) : String(value);
}

/**
 * A rate as the service wrote it: the number's JSON text (`0.0035`, `-0.002`, `1e-7`), never
 * rounded or regrouped. Anything but a number is not a rate: a TypeError, which tells the
 * views' caller the body is not of their shape.
 */
export function formatRate(value: number): string {
  if (typeof value !== 'number') throw new TypeError(`not a rate: ${JSON.stringify(value)}`);
  return JSON.stringify(value);
}

/** A fee where a negative value is a rebate: its text as written, a rebate in green and named so. */
export function formatFee(value: number): GridCell {
  const text = formatRate(value);
  return value < 0 ? { text: `${text} (rebate)`, style: 'green' } : text;
}

/** A fraction as a percentage: 0.07 → `7%`, without floating-point noise. */
export function formatPercent(fraction: number, target: OutputTarget): string {
  return `${formatNumber(Number((fraction * 100).toFixed(6)), target)}%`;
}
