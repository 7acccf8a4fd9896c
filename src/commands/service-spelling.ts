import { allowedFilterValues, type FilterValues, filterValuesOf } from '../api/available-filters.js';
import { ENUM_FILTER_NAMES, flagOf, type ResultsQuery } from '../api/filters.js';
import { readFilterValues, writeFilterValues } from '../config/exchange-cache.js';
import { cacheDirectory } from '../config/paths.js';
import { AuthError, InterruptedError, MktError, thenSays } from '../core/errors.js';
import type { Context } from './context.js';
import { matchAllowed } from './flag-values.js';

/** How long the kept spellings are trusted before a filter value asks the service again: a week. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The query with each enumerated filter value in the service's spelling (`Fee And Rebates` →
 * `fees_and_rebates` for a service of the 2026 edition), or a usage error for a value it does not
 * take. The spellings come from the profile's kept list, else from the service's "Get Available
 * Filters", asked only here (a filter value given and nothing fresh kept) and then kept; else,
 * and `offline`, from the interface document's table. The sandbox's are never kept.
 */
export async function inServiceSpelling(context: Context, query: ResultsQuery, options: { offline?: boolean } = {}): Promise<ResultsQuery> {
  const given = ENUM_FILTER_NAMES.filter((name) => (query[name]?.length ?? 0) > 0);
  if (given.length === 0) return query;
  const allowed = allowedFilterValues(await learnedValues(context, options.offline === true));
  const spelt: ResultsQuery = { ...query };
  for (const name of given) spelt[name] = (query[name] as string[]).map((value) => matchAllowed(flagOf(name), value, allowed[name]));
  return spelt;
}

/** The kept spellings when fresh (or offline), else the service's: undefined when neither says. */
async function learnedValues(context: Context, offline: boolean): Promise<FilterValues | null | undefined> {
  const settings = await context.settings();
  const fromSandbox = settings.keySource === 'sandbox';
  const kept = fromSandbox ? undefined : readFilterValues(cacheDirectory(context.deps.env), settings.profile);
  if (kept !== undefined && (offline || context.deps.now() - Date.parse(kept.fetchedAt) < MAX_AGE_MS)) return kept.values;
  if (offline) return undefined;
  const client = await context.client();
  let body: unknown;
  try {
    body = await thenSays(client.fetchAvailableFilters(), 'then the request itself, its filter values spelt as this answer lists them');
  } catch (error) {
    // The table serves when the service cannot say now, and nothing is kept; a rejected key or
    // an interruption ends the command here as it would at the next request.
    if (error instanceof AuthError || error instanceof InterruptedError || !(error instanceof MktError)) throw error;
    return undefined;
  }
  await keepFilterValues(context, body);
  return filterValuesOf(body) ?? null;
}

/**
 * Keeps the spellings of an answer of "Get Available Filters" (undefined: the service has none)
 * for the profile, as `mkt exchanges` keeps its list. A cache that cannot be written is no error:
 * the next filter value asks again.
 */
export async function keepFilterValues(context: Context, body: unknown): Promise<void> {
  const settings = await context.settings();
  if (settings.keySource === 'sandbox') return;
  try {
    writeFilterValues(cacheDirectory(context.deps.env), settings.profile, {
      fetchedAt: new Date(context.deps.now()).toISOString(),
      values: filterValuesOf(body) ?? null,
    });
  } catch {
    // As above: nothing kept, nothing lost.
  }
}
