import { RESULT_FIELD_NAMES } from './fields.js';
import { enumKey } from './filter-spelling.js';
import type { FeeScheduleResult, FeeScheduleResult2026, ResultRecord } from './types.js';

/*
 * What changed between two versions of a fee schedule (shared/cli-contract.md, "Diff"). A line
 * item's id changes with every version, so items are paired by what they are, their identity,
 * and a pair whose other fields differ is a change.
 */

/** The fields that say which line item a record is. */
export const IDENTITY_FIELDS = [
  'fee_category',
  'fee_charge_type',
  'fee_action',
  'fee_participant',
  'fee_symbol_classification',
  'fee_symbol_type',
  'fee_trade_type',
  'fee_symbol',
  'fee_basis',
  'fee_monthly_volume',
  'fee_action_details',
  'fee_participant_details',
] as const satisfies readonly (keyof FeeScheduleResult & keyof FeeScheduleResult2026)[];

/**
 * Fields that differ in every version and say nothing of the item: its id in either shape, and
 * where the version's document cites it, which moves with every edition of the document.
 */
const VERSION_FIELDS = new Set<string>(['id', 'record_id', 'version_id', 'scraped_time', 'created_on', 'source_document', 'source_link', 'page_number']);

/** The fields compared within a pair, of either shape, in the service document's order. */
export const COMPARED_FIELDS = RESULT_FIELD_NAMES.filter(
  (name) => !VERSION_FIELDS.has(name) && !(IDENTITY_FIELDS as readonly string[]).includes(name),
);

export interface Difference {
  change: 'added' | 'removed' | 'changed';
  before: ResultRecord | null;
  after: ResultRecord | null;
  /** The compared fields whose values differ; empty for added and removed. */
  fields: string[];
}

/** `Fees And Rebates` is the service's other spelling of `Fee And Rebates` (enumKey). */
const category = (value: unknown): unknown => (typeof value === 'string' ? enumKey(value) : value);

/** The identity of a record as one string: equal strings, one item. */
function identityOf(record: ResultRecord): string {
  return JSON.stringify(IDENTITY_FIELDS.map((name) => (name === 'fee_category' ? category(record[name]) : record[name] ?? null)));
}

/** Whether two values are the same as JSON: a value of the server's may be anything, but it is nearly always text or null. */
const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** The compared fields on which two records differ (null and a missing field are the same). */
function changedFields(before: ResultRecord, after: ResultRecord): string[] {
  const value = (record: ResultRecord, name: string): unknown => (record as unknown as Record<string, unknown>)[name] ?? null;
  return COMPARED_FIELDS.filter((name) => !sameValue(value(before, name), value(after, name)));
}

/** A record's compared fields as text: the order items of one identity are taken in, so that the output never depends on the service's order. */
const contentKey = (record: ResultRecord): string => JSON.stringify(COMPARED_FIELDS.map((name) => (record as unknown as Record<string, unknown>)[name] ?? null));

/**
 * The pairing of `rows` with `columns` (rows ≤ columns) that minimises the summed cost: the
 * Hungarian method, O(n²m). Returns, for each row, its column.
 */
function cheapestAssignment(cost: readonly (readonly number[])[]): number[] {
  const rows = cost.length;
  const columns = cost[0]?.length ?? 0;
  const u = new Array<number>(rows + 1).fill(0);
  const v = new Array<number>(columns + 1).fill(0);
  const rowOfColumn = new Array<number>(columns + 1).fill(0);
  const way = new Array<number>(columns + 1).fill(0);
  for (let row = 1; row <= rows; row++) {
    rowOfColumn[0] = row;
    let column0 = 0;
    const minimum = new Array<number>(columns + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Array<boolean>(columns + 1).fill(false);
    do {
      used[column0] = true;
      const row0 = rowOfColumn[column0] as number;
      let delta = Number.POSITIVE_INFINITY;
      let column1 = 0;
      for (let column = 1; column <= columns; column++) {
        if (used[column]) continue;
        const reduced = (cost[row0 - 1]?.[column - 1] as number) - (u[row0] as number) - (v[column] as number);
        if (reduced < (minimum[column] as number)) {
          minimum[column] = reduced;
          way[column] = column0;
        }
        if ((minimum[column] as number) < delta) {
          delta = minimum[column] as number;
          column1 = column;
        }
      }
      for (let column = 0; column <= columns; column++) {
        if (used[column]) {
          u[rowOfColumn[column] as number] = (u[rowOfColumn[column] as number] as number) + delta;
          v[column] = (v[column] as number) - delta;
        } else {
          minimum[column] = (minimum[column] as number) - delta;
        }
      }
      column0 = column1;
    } while (rowOfColumn[column0] !== 0);
    do {
      const column1 = way[column0] as number;
      rowOfColumn[column0] = rowOfColumn[column1] as number;
      column0 = column1;
    } while (column0 !== 0);
  }
  const columnOfRow = new Array<number>(rows).fill(-1);
  for (let column = 1; column <= columns; column++) if ((rowOfColumn[column] as number) > 0) columnOfRow[(rowOfColumn[column] as number) - 1] = column - 1;
  return columnOfRow;
}

/** Beyond this many candidate pairs in one identity, items are paired in order instead: the optimum costs O(n³). */
const MAX_OPTIMAL_PAIRS = 40_000;

/** A record with its contentKey, worked out once: sorting and matching compare it many times. */
interface Keyed {
  record: ResultRecord;
  key: string;
}

/**
 * Pairs the items of one identity, each side in content order, so that the fewest fields are
 * reported changed. Items whose compared fields are equal are paired first: that is always part
 * of an optimal pairing (the number of differing fields is a distance), and it leaves only the
 * changed few to the Hungarian method. An identity with more than MAX_OPTIMAL_PAIRS candidate
 * pairs left is paired in content order, which is deterministic but may report more than the
 * fewest. Apart from the Hungarian method's few, the work grows with the items, not their square.
 */
function pairIdentity(allBefore: readonly Keyed[], allAfter: readonly Keyed[]): Difference[] {
  // Runs of equal content on both sides, walked together as in a merge: the first of each run pair up.
  const before: ResultRecord[] = [];
  const after: ResultRecord[] = [];
  let b = 0;
  let a = 0;
  while (b < allBefore.length || a < allAfter.length) {
    const old = allBefore[b];
    const now = allAfter[a];
    if (old && now && old.key === now.key) {
      b++;
      a++;
    } else if (old && (!now || old.key < now.key)) {
      before.push(old.record);
      b++;
    } else {
      after.push((now as Keyed).record);
      a++;
    }
  }
  const differences: Difference[] = [];
  const flipped = before.length > after.length;
  const [rows, columns] = flipped ? [after, before] : [before, after];
  const optimal = rows.length * columns.length <= MAX_OPTIMAL_PAIRS;
  const cost = optimal ? rows.map((row) => columns.map((column) => (flipped ? changedFields(column, row) : changedFields(row, column)).length)) : [];
  const assignment = rows.length === 0 ? [] : optimal ? cheapestAssignment(cost) : rows.map((_, index) => index);
  const paired = new Set<number>();
  rows.forEach((row, index) => {
    const column = columns[assignment[index] as number] as ResultRecord;
    paired.add(assignment[index] as number);
    const [old, now] = flipped ? [column, row] : [row, column];
    const fields = changedFields(old, now);
    if (fields.length > 0) differences.push({ change: 'changed', before: old, after: now, fields });
  });
  columns.forEach((column, index) => {
    if (paired.has(index)) return;
    differences.push(flipped ? { change: 'removed', before: column, after: null, fields: [] } : { change: 'added', before: null, after: column, fields: [] });
  });
  return differences;
}

/** An identity with at most one item on each side, as most are: what pairIdentity gives, without its work. */
function pairOne(before: ResultRecord | undefined, after: ResultRecord | undefined): Difference[] {
  if (!after) return before ? [{ change: 'removed', before, after: null, fields: [] }] : [];
  if (!before) return [{ change: 'added', before: null, after, fields: [] }];
  const fields = changedFields(before, after);
  return fields.length > 0 ? [{ change: 'changed', before, after, fields }] : [];
}

/**
 * The differences from version `before` to version `after`: one per added, removed or changed
 * line item, nothing for an item that did not change. The same inputs, in any order, give the
 * same output: by identity, then removed, changed, added.
 */
export function diffVersions(before: readonly ResultRecord[], after: readonly ResultRecord[]): Difference[] {
  const groups = new Map<string, { before: ResultRecord[]; after: ResultRecord[] }>();
  const group = (key: string): { before: ResultRecord[]; after: ResultRecord[] } => {
    let found = groups.get(key);
    if (!found) groups.set(key, (found = { before: [], after: [] }));
    return found;
  };
  for (const record of before) group(identityOf(record)).before.push(record);
  for (const record of after) group(identityOf(record)).after.push(record);
  const order = { removed: 0, changed: 1, added: 2 } as const;
  const inContentOrder = (records: ResultRecord[]): Keyed[] =>
    records.map((record) => ({ record, key: contentKey(record) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [...groups.keys()].sort().flatMap((key) => {
    const { before: old, after: now } = group(key);
    if (old.length <= 1 && now.length <= 1) return pairOne(old[0], now[0]);
    return pairIdentity(inContentOrder(old), inContentOrder(now)).sort((a, b) => order[a.change] - order[b.change]);
  });
}
