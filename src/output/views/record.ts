import type { OutputTarget } from '../exporter.js';
import { valueText } from '../flatten.js';
import { type GridCell, renderKeyValueTable } from '../grid.js';
import { relationshipLines } from './relationships.js';

/**
 * `mkt results get`: one record, a field a line in the service's order, blank where null; its
 * relationships (2026) as its footnotes and definitions, one a line.
 */
export function renderRecordView(record: Readonly<Record<string, unknown>>, target: OutputTarget): string {
  const pairs = Object.entries(record).map(([name, value]): [string, GridCell] => [
    name,
    relationshipLines(value) ?? (value === null || value === undefined ? '' : valueText(value)),
  ]);
  return renderKeyValueTable(pairs, target);
}
