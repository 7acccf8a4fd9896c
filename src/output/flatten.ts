import type { JsonObject } from './exporter.js';

/**
 * One row of a tabular format, keyed by dotted column name. Values are scalars, null, or an
 * array of scalars, which each format writes its own way.
 */
export type FlatRow = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isArrayOfObjects(value: unknown): value is JsonObject[] {
  return Array.isArray(value) && value.length > 0 && value.every(isPlainObject);
}

/**
 * The rows of a record in a tabular format:
 * - a nested object becomes dotted columns (`fee_schedule.tier_thresholds.tier_1.volume`);
 * - an array of objects becomes one row per element (`order_types.type`), the other fields
 *   repeated on each; two such arrays in one record give every combination of their elements;
 * - an empty array or object adds no column; an array of scalars stays one value.
 */
export function flattenRecord(record: JsonObject): FlatRow[] {
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'object' && value !== null && !isScalarArray(value)) return flattenInto(record, '');
  }
  // Results are flat: no copy. (Checked without Object.values, which made an array per record.)
  return [record];
}

/** A non-empty array of scalars: one value. An empty array is no column (see flattenRecord). */
function isScalarArray(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && !value.some((element) => typeof element === 'object' && element !== null);
}

/** A cell's value as text: a string as it is, an object or array as JSON, any other scalar by String. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function flattenInto(object: JsonObject, prefix: string): FlatRow[] {
  let rows: FlatRow[] = [{}];
  for (const [key, value] of Object.entries(object)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (isPlainObject(value)) {
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
