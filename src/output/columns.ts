import { UsageError } from '../core/errors.js';
import { nearestValue } from '../core/nearest.js';
import type { Column, ColumnKind } from './exporter.js';
import type { FlatRow } from './flatten.js';

/**
 * The columns `--columns` names, in its order, or a UsageError that lists the available names.
 * A name is a column (`fee_schedule.maker_fee`) or a prefix of columns (`fee_schedule` selects
 * every `fee_schedule.*` column). Repeated names count once.
 */
export function validateColumns(select: readonly string[], columns: readonly Column[]): Column[] {
  const chosen = new Map<string, Column>();
  for (const name of select) {
    const exact = columns.find((column) => column.name === name);
    const matches = exact ? [exact] : columns.filter((column) => column.name.startsWith(`${name}.`));
    if (matches.length === 0) {
      const suggestion = nearestValue(name, columns.map((column) => column.name));
      throw new UsageError(`unknown column "${name}" in --columns${suggestion ? `; did you mean ${suggestion}?` : ''}`, {
        hint: `Available columns: ${columns.map((column) => column.name).join(', ')}.`,
      });
    }
    for (const column of matches) chosen.set(column.name, column);
  }
  return [...chosen.values()];
}

/**
 * Columns of rows whose schema is not known ahead (the exchange resources), in the order the
 * names are first seen. A column holding one kind of value keeps it; mixed kinds, arrays and
 * strings (timestamps included) are strings. Nullable when any row lacks a value.
 */
export function deriveColumns(rows: Iterable<FlatRow>): Column[] {
  const found = new Map<string, { kind: ColumnKind | undefined; nullable: boolean; seen: number }>();
  let rowCount = 0;
  for (const row of rows) {
    rowCount++;
    for (const [name, value] of Object.entries(row)) {
      let column = found.get(name);
      if (!column) {
        column = { kind: undefined, nullable: false, seen: 0 };
        found.set(name, column);
      }
      column.seen++;
      if (value === null || value === undefined) {
        column.nullable = true;
        continue;
      }
      const kind = kindOf(value);
      column.kind = column.kind === undefined || column.kind === kind ? kind : 'string';
    }
  }
  return [...found].map(([name, column]) => ({
    name,
    kind: column.kind ?? 'string',
    nullable: column.nullable || column.seen < rowCount,
  }));
}

function kindOf(value: unknown): ColumnKind {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}
