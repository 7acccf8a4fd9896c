import type { ResultsQuery } from './filters.js';

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
