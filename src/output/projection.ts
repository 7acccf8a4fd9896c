import type { JsonObject } from './exporter.js';
import { isJsonObject } from '../core/json-object.js';

/** Selected paths as a tree: `true` keeps the whole value below. */
type Selection = Map<string, Selection | true>;

function selectionOf(select: readonly string[]): Selection {
  const root: Selection = new Map();
  for (const name of select) {
    const keys = name.split('.');
    const last = keys.length - 1;
    let node = root;
    for (const [index, key] of keys.entries()) {
      const existing = node.get(key);
      if (existing === true) break;
      if (index === last) {
        node.set(key, true);
        break;
      }
      const child: Selection = existing ?? new Map();
      node.set(key, child);
      node = child;
    }
  }
  return root;
}

function project(value: unknown, selection: Selection | true): unknown {
  if (selection === true) return value;
  if (Array.isArray(value)) return value.map((element) => project(element, selection));
  if (!isJsonObject(value)) return null;
  const out: JsonObject = {};
  for (const [key, child] of selection) out[key] = project(value[key] ?? null, child);
  return out;
}

/**
 * `--columns` for JSON: each record cut down to the selected fields, in the selection's order.
 * Dotted names reach nested fields and are nested again in the output
 * (`fee_schedule.maker_fee` → `{"fee_schedule":{"maker_fee":…}}`); through an array of objects
 * they apply to each element. A missing field is null.
 */
export function createProjection(select: readonly string[]): (record: JsonObject) => JsonObject {
  const selection = selectionOf(select);
  return (record) => project(record, selection) as JsonObject;
}
