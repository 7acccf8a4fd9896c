import { readFileSync } from 'node:fs';
import { MktError } from '../errors.js';
import type { ConfigFiles } from './paths.js';
import { checkApiKey, parseSetting, type ProfileSettings, SETTING_NAMES } from './settings.js';

/*
 * Reads the files `conf` writes (src/config/store.ts) with node:fs alone: most commands only
 * read, and loading `conf` costs more than the rest of start-up. Both files look like
 *   { "profiles": { "<profile>": { "<name>": <value>, … }, … } }
 */

export type ProfileEntries = Record<string, unknown>;
export type ProfileTable = Record<string, ProfileEntries>;

const FIX_HINT = 'Fix the file by hand, or delete it and set the values again.';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Never quotes the parser's message: it can echo the file's content, and the file may hold a key. */
export function notJsonError(file: string): MktError {
  return new MktError(`${file} is not valid JSON`, { hint: FIX_HINT });
}

/** The `profiles` table of a file's content, checked for shape (not values). */
export function profileTable(data: unknown, file: string): ProfileTable {
  if (data === undefined) return {};
  const profiles = isPlainObject(data) ? (data.profiles ?? {}) : undefined;
  if (!isPlainObject(profiles) || !Object.values(profiles).every(isPlainObject)) {
    throw new MktError(`${file} does not hold {"profiles": {"<name>": {…}}}`, { hint: FIX_HINT });
  }
  return profiles as ProfileTable;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MktError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw notJsonError(file);
  }
}

function profileEntries(file: string, profile: string): ProfileEntries {
  const profiles = profileTable(readJson(file), file);
  return Object.hasOwn(profiles, profile) ? (profiles[profile] as ProfileEntries) : {};
}

/** The profile's stored settings, each validated; names `mkt` does not know are ignored. */
export function readProfileSettings(files: ConfigFiles, profile: string): ProfileSettings {
  const entries = profileEntries(files.settings, profile);
  const settings: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const value = entries[name];
    if (value === undefined || value === null) continue;
    settings[name] = parseSetting(name, typeof value === 'object' ? JSON.stringify(value) : String(value), {
      label: `${name} of profile "${profile}" in ${files.settings}`,
      hint: `Run \`mkt config set ${name} <value> --profile ${profile}\` or \`mkt config unset ${name} --profile ${profile}\`.`,
    });
  }
  return settings as ProfileSettings;
}

/** The profile's stored key, if any. */
export function readStoredApiKey(files: ConfigFiles, profile: string): string | undefined {
  const key = profileEntries(files.credentials, profile).api_key;
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key === '') {
    throw new MktError(`the api_key of profile "${profile}" in ${files.credentials} is not a string`, {
      hint: `Run \`mkt auth login --profile ${profile}\` to store it again.`,
    });
  }
  return checkApiKey(key, files.credentials);
}
