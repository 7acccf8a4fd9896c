import { type KeyPlacement, parseKeyPlacement } from '../api/key-placement.js';
import { UsageError } from '../core/errors.js';
import { nearestValue } from '../core/nearest.js';
import { FORMATS, type Format } from '../output/formats.js';

/** What a profile stores in config.json. Every field is optional: unset falls back to a default. */
export interface ProfileSettings {
  /** The service's base URL, http:// or https://. */
  base_url?: string;
  /** Output format when no --format is given. */
  format?: Format;
  /** Seconds per request, > 0. @default 30 */
  timeout?: number;
  /** Retries per request, a whole number ≥ 0. @default 4 */
  retries?: number;
  /** Where the exchange endpoints take the key: `bearer` or `header:<name>`. @default bearer */
  exchanges_auth?: KeyPlacement;
  /** Where the results endpoint, its filters and the exchange list take the key. @default header:x-service-api-access-key */
  results_auth?: KeyPlacement;
}
export type SettingName = keyof ProfileSettings;

export const SETTING_NAMES = ['base_url', 'format', 'timeout', 'retries', 'exchanges_auth', 'results_auth'] as const satisfies readonly SettingName[];

export const SETTING_DEFAULTS = { timeout: 30, retries: 4 } as const satisfies ProfileSettings;

/** A day: longer is surely a typo, and timers overflow past 24.8 days. */
const MAX_TIMEOUT_SECONDS = 86_400;

const KEY_PLACEMENT_EXPECTED = 'bearer or header:<name>, with a header name (an RFC 9110 token) the request does not set itself';

interface SettingRule<T> {
  /** Completes "<name> must be …". */
  expected: string;
  /** The value, or undefined when the text is not one. */
  parse(text: string): T | undefined;
  /** The values it takes, when they are few: a typo gets the closest. */
  choices?: readonly string[];
}

const SETTING_RULES: { [K in SettingName]-?: SettingRule<NonNullable<ProfileSettings[K]>> } = {
  base_url: { expected: 'an http:// or https:// URL', parse: parseHttpUrl },
  format: { expected: `one of ${FORMATS.join(', ')}`, parse: (text) => FORMATS.find((format) => format === text), choices: FORMATS },
  timeout: {
    expected: `a number of seconds greater than 0, at most ${MAX_TIMEOUT_SECONDS}`,
    parse: (text) => {
      const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
      return seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS ? seconds : undefined;
    },
  },
  retries: {
    expected: 'a whole number ≥ 0',
    parse: (text) => (/^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined),
  },
  exchanges_auth: { expected: KEY_PLACEMENT_EXPECTED, parse: parseKeyPlacement },
  results_auth: { expected: KEY_PLACEMENT_EXPECTED, parse: parseKeyPlacement },
};

function parseHttpUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '' ? text : undefined;
}

/**
 * What makes a parsed http(s) URL unfit to be the base URL, beyond its scheme: a user or password,
 * and an empty segment in its path.
 *
 * `https://user:password@host/` is refused: the service takes its key in a header, never from
 * the URL, and a password there would end up in config files, logs and messages. The message
 * shows the URL without its user part, so it never echoes the password.
 *
 * A path with `//` is refused rather than tidied: `https://host//10.0.0.5:8080` reads as a
 * scheme-relative URL wherever a path is resolved against it, which sends the key to another
 * host, and which path the user meant is theirs to say. The hint offers the path with `/` for `//`.
 */
function refuseUnsafeBaseUrl(text: string, origin: ValueOrigin): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return; // not a URL: the rule's own message says so
  }
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    throw new UsageError(`${origin.label} must not carry a user name or password (${url.href}): the service does not authenticate that way`, {
      hint: origin.hint ?? 'Give the URL without `user:password@`, and the key with `mkt auth login` or MKT_API_KEY.',
    });
  }
  if (url.pathname.includes('//')) {
    const tidied = new URL(url.href);
    tidied.pathname = url.pathname.replace(/\/{2,}/g, '/');
    throw new UsageError(`${origin.label} must not have an empty segment ("//") in its path (${url.href}): it could name another host`, {
      hint: [`Did you mean ${tidied.href}?`, origin.hint].filter(Boolean).join(' '),
    });
  }
}

/** Where a value came from, for the error message: `MKT_BASE_URL`, `--base-url`, a file. */
export interface ValueOrigin {
  label: string;
  hint?: string;
}

/** Validates a setting's value given as text (a flag, a variable, `mkt config set`). */
export function parseSetting<K extends SettingName>(
  name: K,
  text: string,
  origin: ValueOrigin = { label: name },
): NonNullable<ProfileSettings[K]> {
  const rule = SETTING_RULES[name] as SettingRule<NonNullable<ProfileSettings[K]>>;
  if (name === 'base_url') refuseUnsafeBaseUrl(text.trim(), origin);
  const value = rule.parse(text.trim());
  if (value === undefined) {
    const suggestion = rule.choices && nearestValue(text.trim(), rule.choices);
    throw new UsageError(`${origin.label} must be ${rule.expected}, not ${JSON.stringify(text)}${suggestion ? `; did you mean ${suggestion}?` : ''}`, {
      hint: origin.hint,
    });
  }
  return value;
}

export function parseSettingName(text: string): SettingName {
  const name = SETTING_NAMES.find((candidate) => candidate === text);
  if (!name) {
    const suggestion = nearestValue(text, SETTING_NAMES);
    throw new UsageError(`unknown setting ${JSON.stringify(text)}${suggestion ? `; did you mean ${suggestion}?` : ''}`, {
      hint: `Settings are: ${SETTING_NAMES.join(', ')}.`,
    });
  }
  return name;
}

/** Letters, digits, `-` and `_`, starting with a letter or digit (so never `__proto__`). */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function checkProfileName(name: string, label: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name ${JSON.stringify(name)} (${label})`, {
      hint: 'A profile name is up to 64 letters, digits, "-" and "_", starting with a letter or digit.',
    });
  }
  return name;
}

/** 4 KiB: the longest key mkt accepts. */
const MAX_API_KEY_LENGTH = 4096;

/**
 * A key goes into HTTP headers: printable ASCII without spaces. The message never quotes it.
 * @param label where the key came from, e.g. "MKT_API_KEY" or "standard input".
 */
export function checkApiKey(key: string, label: string): string {
  // Real keys are tens of bytes; a bigger one is a wrong file piped in, and would overflow
  // the service's header limit anyway.
  if (key.length > MAX_API_KEY_LENGTH) {
    throw new UsageError(`the API key from ${label} is ${key.length} characters, more than the 4 KiB a key may be`, {
      hint: 'Pass the key exactly as the operator issued it, not a file that holds more.',
    });
  }
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError(`the API key from ${label} contains spaces, control or non-ASCII characters`, {
      hint: 'Pass the key exactly as the operator issued it.',
    });
  }
  return key;
}

/** The last 4 characters, the only part of a key `mkt` ever shows; nothing of a short key. */
export function maskApiKey(key: string): string {
  return key.length >= 8 ? `…${key.slice(-4)}` : '…';
}
