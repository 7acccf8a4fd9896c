import type { Context } from './context.js';
import { keptExchangeIds } from '../config/exchange-cache.js';
import { cacheDirectory } from '../config/paths.js';
import { NotFoundError } from '../core/errors.js';
import { nearestValue } from '../core/nearest.js';

/** A typed exchange that the profile's kept list (`mkt exchanges`) does not hold. */
interface UnkeptExchange {
  id: string;
  /** The closest exchange the list holds, if one is close enough. */
  suggestion: string | undefined;
  /** The warning, for when the service answers for it anyway: the list may be stale. */
  warning: string;
}

/**
 * The typed exchanges the profile's kept list does not hold. None without a kept list, or
 * against the sandbox, which is not the user's service.
 */
async function unkeptExchanges(context: Context, typed: readonly string[]): Promise<UnkeptExchange[]> {
  if (typed.length === 0) return [];
  const settings = await context.settings();
  const known = keptExchangeIds(cacheDirectory(context.deps.env), settings) ?? [];
  if (known.length === 0) return [];
  return typed
    .filter((id) => !known.includes(id))
    .map((id) => {
      // The same letters in another case: the list says how this service spells its identifiers.
      const suggestion = known.find((candidate) => candidate.toLowerCase() === id.toLowerCase()) ?? nearestValue(id, known);
      const warning = `${id} is not among the ${known.length} exchanges kept for profile "${settings.profile}"${suggestion ? `; did you mean ${suggestion}?` : ''}`
        + ' (`mkt exchanges --refresh` reads the list again)';
      return { id, suggestion, warning };
    });
}

/**
 * Warns, on stderr, of each typed exchange that the profile's kept list does not hold, with the
 * closest one it does. The request is still sent: the list may be stale.
 */
export async function warnOfUnknownExchanges(context: Context, typed: readonly string[]): Promise<void> {
  for (const { warning } of await unkeptExchanges(context, typed)) context.log.warn(warning);
}

/** What the kept list says of the exchanges a command was given, for its one message per typo. */
export interface KeptExchangesCheck {
  /** The kept list's closest exchange to a typed one it does not hold, if any. */
  suggestionFor(exchange: string): string | undefined;
  /** The error of the work for a typed exchange: a 404 gets the kept list's did-you-mean as its hint. */
  explain<E>(exchange: string, error: E): E | NotFoundError;
  /** Warns of the typed exchanges the list does not hold that the service answered for: the list may be stale. */
  warnOfAnswered(): void;
}

/**
 * Checks typed exchanges against the profile's kept list, saying nothing yet: a typo is then one
 * message, the service's 404 with the did-you-mean, or a warning when the service answers anyway.
 */
export async function checkKeptExchanges(context: Context, typed: readonly string[]): Promise<KeptExchangesCheck> {
  const unkept = new Map((await unkeptExchanges(context, typed)).map((entry) => [entry.id, entry]));
  const failed = new Set<string>();
  return {
    suggestionFor: (exchange) => unkept.get(exchange)?.suggestion,
    explain(exchange, error) {
      if (!(error instanceof NotFoundError)) return error;
      failed.add(exchange);
      const suggestion = unkept.get(exchange)?.suggestion;
      if (suggestion === undefined) return error;
      return new NotFoundError(error.message, {
        hint: `Did you mean ${suggestion}? \`mkt exchanges\` lists the exchanges your key reaches.`,
        cause: error,
        httpStatus: error.httpStatus,
      });
    },
    warnOfAnswered() {
      for (const [id, { warning }] of unkept) if (!failed.has(id)) context.log.warn(warning);
    },
  };
}
