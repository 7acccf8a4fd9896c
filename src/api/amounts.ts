/*
 * `fee_amount` as a number (shared/cli-contract.md, "Fee amounts as numbers"): the contract's
 * rules and nothing more clever. The text is the server's: any length, any characters. Every
 * pattern here is linear (no nested quantifiers), so a megabyte of digits costs one pass.
 */

/** The currencies an amount may name; its other units are a percentage and basis points. */
export const AMOUNT_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export type AmountUnit = (typeof AMOUNT_CURRENCIES)[number] | '%' | 'bps';

export interface ParsedAmount {
  /** The one amount the text holds, negative for a rebate; null with none or several. */
  value: number | null;
  /** What the amount is in; null when the text names no unit. */
  unit: AmountUnit | null;
}

/** A number: with thousands separators in groups of three, or plain, with or without decimals. */
const NUMBER = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+/g;
/** Currencies before or after the amount, and units after it. */
const CURRENCY_BEFORE = /(?:\$|€|£|\bUSD|\bEUR|\bGBP)\s*$/i;
const CURRENCY_AFTER = /^\s*(?:\$|€|£|USD\b|EUR\b|GBP\b)/i;
const UNIT_AFTER = /^\s*(%|bps?\b)/i;
/** The rule 5 words: nothing to pay. */
const NOTHING_TO_PAY = /^(?:free|no charge|no fee|waived)$/i;
/** Words that name a unit anywhere in the text, when none stands beside the amount. */
const UNITS_IN_TEXT: readonly [RegExp, AmountUnit][] = [
  [/\$|\bUSD\b/i, 'USD'],
  [/€|\bEUR\b/i, 'EUR'],
  [/£|\bGBP\b/i, 'GBP'],
  [/%/, '%'],
  [/\d\s*bps?\b|\bbasis points?\b/i, 'bps'],
];

function unitOf(symbol: string): AmountUnit {
  const upper = symbol.trim().toUpperCase();
  if (upper === '$' || upper === 'USD') return 'USD';
  if (upper === '€' || upper === 'EUR') return 'EUR';
  if (upper === '£' || upper === 'GBP') return 'GBP';
  if (upper === '%') return '%';
  return 'bps';
}

/** The one unit the text names, if exactly one. */
function unitInText(text: string): AmountUnit | null {
  const named = UNITS_IN_TEXT.filter(([pattern]) => pattern.test(text)).map(([, unit]) => unit);
  return named.length === 1 ? (named[0] as AmountUnit) : null;
}

export function parseAmount(text: string | null | undefined): ParsedAmount {
  const trimmed = (text ?? '').trim();
  const numbers = [...trimmed.matchAll(NUMBER)];
  if (numbers.length === 0) {
    return { value: NOTHING_TO_PAY.test(trimmed) ? 0 : null, unit: null };
  }
  const [match] = numbers;
  if (numbers.length > 1 || !match) return { value: null, unit: unitInText(trimmed) };

  const start = match.index ?? 0;
  let before = trimmed.slice(0, start);
  let after = trimmed.slice(start + match[0].length);
  let unit: AmountUnit | null = null;
  const currencyBefore = CURRENCY_BEFORE.exec(before);
  if (currencyBefore) {
    unit = unitOf(currencyBefore[0]);
    before = before.slice(0, currencyBefore.index);
  }
  // `$(0.0020)`: the currency outside the parentheses.
  const innerOpen = /\(\s*$/.exec(before);
  if (innerOpen && !unit) {
    const outside = CURRENCY_BEFORE.exec(before.slice(0, innerOpen.index));
    if (outside) unit = unitOf(outside[0]);
  }
  const afterUnit = UNIT_AFTER.exec(after) ?? CURRENCY_AFTER.exec(after);
  if (afterUnit) {
    unit ??= unitOf(afterUnit[1] ?? afterUnit[0]);
    after = after.slice(afterUnit[0].length);
  }
  unit ??= unitInText(trimmed);

  // Rule 2: in parentheses (the currency inside or not), or a minus sign before it or its currency.
  const inParentheses = /\(\s*(?:(?:\$|€|£|USD|EUR|GBP)\s*)?$/i.test(before) && /^\s*\)/.test(after);
  const minus = /[-−]\s*$/.test(before.replace(/(?:\$|€|£|USD|EUR|GBP)\s*$/i, ''));
  const value = Number(match[0].replaceAll(',', ''));
  if (!Number.isFinite(value)) return { value: null, unit }; // 400 digits is not an amount
  // A rebate of nothing is 0: -0 would compare apart from it.
  return { value: (inParentheses || minus) && value !== 0 ? -value : value, unit };
}

/** A number as its shortest decimal, digits and a power of ten: 1.5e-12 is 15 × 10^-13, 0.0032 is 32 × 10^-4. */
function decimalOf(value: number): { digits: bigint; exponent: number } {
  const [mantissa = '', power = '0'] = String(value).split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  return { digits: BigInt(whole + fraction), exponent: Number(power) - fraction.length };
}

/**
 * How far an amount moved, `after - before`, worked out on the amounts' decimals and rounded to
 * a number once: 0.0032 - 0.0030 is 0.0002, not 0.00019999999999999966, and a change in the
 * twelfth decimal place is not lost.
 */
export function amountDifference(before: number, after: number): number {
  const [from, to] = [decimalOf(before), decimalOf(after)];
  const exponent = Math.min(from.exponent, to.exponent);
  const difference = to.digits * 10n ** BigInt(to.exponent - exponent) - from.digits * 10n ** BigInt(from.exponent - exponent);
  return Number(`${difference}e${exponent}`);
}

/** A number written out in decimal, never with an exponent: 1e-12 is `0.000000000001`, 2e21 is `2000000000000000000000`. */
export function plainDecimal(value: number): string {
  const { digits, exponent } = decimalOf(value);
  const sign = digits < 0n ? '-' : '';
  const text = String(digits < 0n ? -digits : digits);
  if (exponent >= 0) return `${sign}${text}${'0'.repeat(exponent)}`;
  const padded = text.padStart(1 - exponent, '0');
  return `${sign}${padded.slice(0, exponent)}.${padded.slice(exponent)}`;
}

/** The two fields `--parse-amounts` adds, right after `fee_amount`. */
export const AMOUNT_FIELDS = [
  { name: 'fee_amount_value', kind: 'number', nullable: true },
  { name: 'fee_amount_unit', kind: 'string', nullable: true },
] as const;

/** A record with `fee_amount_value` and `fee_amount_unit` after its `fee_amount`, keys in that order. */
export function withParsedAmount(record: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    out[name] = value;
    if (name !== 'fee_amount') continue;
    const { value: amount, unit } = parseAmount(typeof value === 'string' ? value : null);
    out.fee_amount_value = amount;
    out.fee_amount_unit = unit;
  }
  return out;
}

/** Each record of each batch, as withParsedAmount gives it. */
export async function* withParsedAmounts<T extends object>(batches: AsyncIterable<readonly T[]>): AsyncGenerator<Record<string, unknown>[]> {
  for await (const records of batches) yield records.map(withParsedAmount);
}
