/**
 * A number as `toLocaleString('en-US', { maximumFractionDigits: 10 })` writes it: `300,000`,
 * `-1,234.5`. Integers are grouped here, without Intl: the first toLocaleString of a process
 * loads ICU's number data, which a sync finding nothing new or a small table would otherwise
 * spend most of its own work on. Other numbers are left to toLocaleString.
 */
export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US', { maximumFractionDigits: 10 });
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${String(Math.abs(value)).replace(/\B(?=(?:\d{3})+$)/g, ',')}`;
}
