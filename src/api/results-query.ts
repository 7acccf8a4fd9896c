import type { ResultsQuery } from './filters.js';

/**
 * The parameters that ask the 2026 edition for a record's citations: its source document, link
 * and page, its footnotes, its definitions (shared/service-2026.md). A service of the first
 * shape ignores parameters it does not know.
 */
export const INCLUDE_PARAMETERS = ['include_source', 'include_footnotes', 'include_definitions'] as const;
export type IncludeParameter = (typeof INCLUDE_PARAMETERS)[number];
/** The citations asked for: each present only when asked, so that nothing is sent otherwise. */
export type Includes = Partial<Record<IncludeParameter, boolean>>;

/** The query string of the results endpoint: arrays as repeated parameters, in a stable order. */
export function toResultsSearchParams(query: ResultsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as [string, ResultsQuery[keyof ResultsQuery]][]) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(name, item);
    } else {
      params.append(name, String(value));
    }
  }
  return params;
}
