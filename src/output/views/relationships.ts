import type { RecordRelationships } from '../../api/types.js';
import { isJsonObject } from '../../core/json-object.js';

/**
 * A 2026 record's `relationships` as lines for people: each footnote, then each definition as
 * `term: text`. Undefined for any other value, which a table shows as it is. The server's
 * strings are taken as they come; anything else in the lists is left out.
 */
export function relationshipLines(value: unknown): string[] | undefined {
  if (!isJsonObject(value) || !Array.isArray(value.footnotes) || !Array.isArray(value.definitions)) return undefined;
  const { footnotes, definitions } = value as unknown as RecordRelationships;
  const text = (item: unknown, field: string): unknown => (isJsonObject(item) ? item[field] : undefined);
  const lines: string[] = [];
  for (const footnote of footnotes) {
    const note = text(footnote, 'text');
    if (typeof note === 'string') lines.push(`footnote: ${note}`);
  }
  for (const definition of definitions) {
    const term = text(definition, 'term');
    const meaning = text(definition, 'text');
    if (typeof term === 'string' && typeof meaning === 'string') lines.push(`${term}: ${meaning}`);
  }
  return lines;
}
