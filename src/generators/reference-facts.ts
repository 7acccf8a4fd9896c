import { CONFIG_NAMES } from '../config/paths.js';
import { EXIT_CODES } from '../core/errors.js';

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
