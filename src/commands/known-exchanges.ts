import type { Context } from './context.js';
import { keptExchangeIds } from '../config/exchange-cache.js';
import { cacheDirectory } from '../config/paths.js';
import { nearestValue } from '../core/nearest.js';

/**
 * Warns, on stderr, of each typed exchange that the profile's kept list (`mkt exchanges`) does
 * not hold, with the closest one it does. The request is still sent: the list may be stale.
 * Nothing is said without a kept list, or against the sandbox, which is not the user's service.
 */
export async function warnOfUnknownExchanges(context: Context, typed: readonly string[]): Promise<void> {
  if (typed.length === 0) return;
  const settings = await context.settings();
  const known = keptExchangeIds(cacheDirectory(context.deps.env), settings) ?? [];
  if (known.length === 0) return;
  for (const id of typed) {
    if (known.includes(id)) continue;
    const suggestion = nearestValue(id, known);
    context.log.warn(
      `${id} is not among the ${known.length} exchanges kept for profile "${settings.profile}"${suggestion ? `; did you mean ${suggestion}?` : ''}`
        + ' (`mkt exchanges --refresh` reads the list again)',
    );
  }
}
