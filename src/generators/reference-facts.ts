import { CONFIG_NAMES } from '../config/paths.js';
import { EXIT_CODES } from '../core/errors.js';
import { ERROR_CODES, type ErrorCode } from '../core/error-codes.js';

/**
 * What the man page and the command reference say beyond the commands: the variables, the
 * files and the exit codes. The names come from the code; the sentences are written here once.
 */

export interface Entry {
  term: string;
  text: string;
}

export const ENVIRONMENT: readonly Entry[] = [
  { term: 'MKT_API_KEY', text: 'The API key. Outranks the stored key. There is no flag for the key: it would show in ps and in shell history.' },
  { term: 'MKT_BASE_URL', text: "The service's base URL. --base-url outranks it; it outranks the profile's base_url." },
  { term: 'MKT_PROFILE', text: 'The profile to use when --profile is not given; else "default".' },
  { term: 'MKT_ERROR_FORMAT', text: 'json: a failure as one JSON object on stderr, as --error-format json; text (the default) or json. --error-format outranks it.' },
  { term: 'MKT_CONFIG_DIR', text: 'The directory of config.json and credentials.json, instead of the one under FILES.' },
  { term: 'XDG_CONFIG_HOME', text: 'On Linux and other Unixes, the config directory is $XDG_CONFIG_HOME/mkt when this is an absolute path.' },
  { term: 'NO_COLOR', text: 'When set and not empty: no colour, whatever else says. It wins over --no-color and every variable below.' },
  { term: 'CLICOLOR_FORCE', text: 'When set and neither empty nor 0: colour even when the stream is not a terminal. NO_COLOR and --no-color win over it.' },
  { term: 'FORCE_COLOR', text: 'Colour even when the stream is not a terminal; 0 or false: no colour. NO_COLOR, --no-color and CLICOLOR_FORCE win over it.' },
  { term: 'CLICOLOR', text: '0: no colour, even at a terminal. NO_COLOR, --no-color, CLICOLOR_FORCE and FORCE_COLOR win over it.' },
];

const settingsFile = `${CONFIG_NAMES.settings}.json`;
const credentialsFile = `${CONFIG_NAMES.credentials}.json`;

export const FILES: readonly Entry[] = [
  { term: settingsFile, text: 'Settings per profile: base_url, format, timeout, retries (mkt config).' },
  { term: credentialsFile, text: 'API keys per profile (mkt auth login), readable by its owner alone (mode 0600).' },
];

/** Where the files live, first match wins: what `mkt config path` prints (src/config/paths.ts). */
export const CONFIG_DIRECTORY: readonly { path: string; when: string }[] = [
  { path: '$MKT_CONFIG_DIR', when: 'when set' },
  { path: '$XDG_CONFIG_HOME/mkt', when: 'Linux and other Unixes, when XDG_CONFIG_HOME is an absolute path' },
  { path: '~/.config/mkt', when: 'Linux and other Unixes, otherwise' },
  { path: '~/Library/Preferences/mkt', when: 'macOS' },
  { path: '%APPDATA%\\mkt\\Config', when: 'Windows' },
];

const EXIT_MEANINGS: Readonly<Record<keyof typeof EXIT_CODES, string>> = {
  success: 'Success; zero records is a success.',
  failure: 'The service or the network failed after retries, or anything unexpected.',
  usage: 'Usage: unknown flag, bad value, bad date, page size out of 1-100; nothing is sent.',
  auth: 'Authentication or licence: no key, key rejected (401), exchange not licensed (403).',
  notFound: 'Not found: unknown exchange (404).',
  changes: 'Changes found: only with sync --exit-code and diff --exit-code, which then exit 0 when nothing changed; never for a failure, which keeps its own code.',
  interrupted: 'Interrupted (Ctrl-C); no partial output file is left behind.',
};

export const EXIT_STATUS: readonly Entry[] = Object.entries(EXIT_CODES).map(([name, code]) => ({
  term: String(code),
  text: EXIT_MEANINGS[name as keyof typeof EXIT_CODES],
}));

/** What each error code of `--error-format json` means, and whether trying again later may help. */
const ERROR_MEANINGS: Readonly<Record<ErrorCode, { when: string; retryable: string }>> = {
  usage: { when: 'A mistake on the command line or in a variable (unknown flag or command, bad value, missing argument; nothing is sent), or a request the service rejected as bad (400, 422).', retryable: 'no' },
  auth: { when: 'No key, or the service rejected it (401).', retryable: 'no' },
  forbidden: { when: 'The key is not licensed for this resource (403).', retryable: 'no' },
  not_found: { when: 'The service does not know the exchange or record (404).', retryable: 'no' },
  rate_limited: { when: 'The service still answered 429 after every retry.', retryable: 'yes' },
  network: { when: 'No answer: connection refused or cut, DNS, TLS, timeout.', retryable: 'yes, but for a TLS or certificate failure' },
  server: { when: 'The service answered a status mkt cannot use: a 5xx after every retry, or a 4xx not named above.', retryable: 'yes for a 5xx, no for a 4xx' },
  malformed_answer: { when: 'The answer is not what the service sends: a body cut short or not the JSON expected, or a base URL that is not the service.', retryable: 'no' },
  interrupted: { when: 'Ctrl-C or SIGTERM.', retryable: 'yes' },
  unexpected: {
    when: 'Anything else: a file mkt cannot write, a broken config file, a mirror in use (the message says which), or a bug (run again with --verbose for the stack trace).',
    retryable: 'no',
  },
};

/** The rows of the error-code table: code, exit code, when, retryable. */
export const ERROR_CODE_ROWS: readonly [string, string, string, string][] = Object.entries(ERROR_CODES).map(([code, exit]) => [
  code,
  String(exit),
  ERROR_MEANINGS[code as ErrorCode].when,
  ERROR_MEANINGS[code as ErrorCode].retryable,
]);
