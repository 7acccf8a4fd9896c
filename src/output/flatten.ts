import { isJsonObject } from '../core/json-object.js';
import type { JsonObject } from './exporter.js';

/**
 * One row of a tabular format, keyed by dotted column name. Values are scalars, null, or what
 * is not flattened (an array of scalars, a mixed array, any value of a declared column), which
 * every format writes as its JSON text (valueText).
 */
export type FlatRow = Record<string, unknown>;


function isArrayOfObjects(value: unknown): value is JsonObject[] {
  return Array.isArray(value) && value.length > 0 && value.every(isJsonObject);
}

/**
 * The rows of a record in a tabular format:
 * - a nested object becomes dotted columns (`fee_schedule.tier_thresholds.tier_1.volume`);
 * - an array of objects becomes one row per element (`order_types.type`), the other fields
 *   repeated on each; two such arrays in one record give every combination of their elements;
 * - an empty array or object adds no column; an array of scalars, or of objects and scalars
 *   mixed, stays one value.
 */
export function flattenRecord(record: JsonObject): FlatRow[] {
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'object' && value !== null && !isScalarArray(value)) return flattenInto(record, '');
  }
  // A flat record is its own row: no copy. (Checked without Object.values, which made an array per record.)
  return [record];
}

/** A non-empty array of scalars: one value. An empty array is no column (see flattenRecord). */
function isScalarArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && !value.some((element) => typeof element === 'object' && element !== null);
}

/**
 * A `\udXXX` escape whose backslash is not itself escaped. JSON.stringify writes a lone
 * surrogate (which JSON text may carry, `"\ud800"`, though no UTF-8 can) that way, and nothing
 * else: a surrogate pair is written as it is.
 */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * JSON.stringify's text with U+FFFD for each lone surrogate, in keys and values: what writing
 * any other text as UTF-8 gives, so that JSON shows what the other formats show and a strict
 * reader never meets `\ud800`. The replacement only runs on text holding `\ud`, which is rare;
 * otherwise the cost is one scan, small beside the export's own work.
 */
export function jsonText(value: unknown, indent?: number): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, indent);
  } catch (error) {
    // JSON.stringify refuses a bigint: only mkt sql's integers beyond a double's make one, rarely.
    if (!(error instanceof TypeError)) throw error;
    text = jsonWithBigInts(value, '', ' '.repeat(indent ?? 0));
  }
  return text.includes('\\ud') ? text.replace(LONE_SURROGATE_ESCAPE, '$1\uFFFD') : text;
}

/**
 * JSON.stringify's text of a value that holds bigints, each written as a JSON number with all its
 * digits, which a reader that keeps big integers (jq 1.7, Python) reads exactly. `step` indents.
 */
function jsonWithBigInts(value: unknown, indent: string, step: string): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null || 'toJSON' in value) return JSON.stringify(value) ?? 'null';
  const inner = indent + step;
  const [open, between, close] = step === '' ? ['', ',', ''] : [`\n${inner}`, `,\n${inner}`, `\n${indent}`];
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[${open}${value.map((item) => jsonWithBigInts(item, inner, step)).join(between)}${close}]`;
  }
  const entries = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol');
  const members = entries.map(([key, item]) => `${JSON.stringify(key)}:${step === '' ? '' : ' '}${jsonWithBigInts(item, inner, step)}`);
  return members.length === 0 ? '{}' : `{${open}${members.join(between)}${close}}`;
}

/**
 * A cell's value as text: a string as it is, an object or array as its compact JSON text, any
 * other scalar by String. A lone surrogate left in a string becomes U+FFFD when the text is
 * written as UTF-8 (by the stream, or TextEncoder for Parquet).
 */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? jsonText(value) : String(value);
}

function flattenInto(object: JsonObject, prefix: string): FlatRow[] {
  let rows: FlatRow[] = [{}];
  for (const [key, value] of Object.entries(object)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (isJsonObject(value)) {
      rows = combine(rows, flattenInto(value, name));
    } else if (isArrayOfObjects(value)) {
      rows = combine(rows, value.flatMap((element) => flattenInto(element, name)));
    } else if (Array.isArray(value) && value.length === 0) {
      continue;
    } else {
      for (const row of rows) row[name] = value;
    }
  }
  return rows;
}

function combine(rows: FlatRow[], children: FlatRow[]): FlatRow[] {
  if (children.length === 1) {
    const [child] = children as [FlatRow];
    for (const row of rows) Object.assign(row, child);
    return rows;
  }
  return rows.flatMap((row) => children.map((child) => ({ ...row, ...child })));
}
