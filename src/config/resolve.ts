import { DEFAULT_KEY_PLACEMENTS, type KeyPlacements } from '../api/key-placement.js';
import type { Format } from '../output/formats.js';
import { type ConfigFiles, configDirectory, configFiles } from './paths.js';
import { readProfileSettings, readStoredApiKey, storedProfileNames } from './store.js';
import { MktError, UsageError } from '../core/errors.js';
import { nearestValue } from '../core/nearest.js';
import { checkApiKey, checkProfileName, parseSetting, type ProfileSettings, SETTING_DEFAULTS } from './settings.js';

export type SettingSource = 'flag' | 'env' | 'profile' | 'default' | 'sandbox';

/** Everything a command needs to reach the service, each value with where it came from. */
export interface ResolvedSettings {
  /** --profile, then MKT_PROFILE, then 'default'. */
  profile: string;
  profileSource: SettingSource;
  /** --base-url, then MKT_BASE_URL, then the profile's base_url; undefined if none. */
  baseUrl?: string;
  baseUrlSource?: SettingSource;
  /** MKT_API_KEY, then the profile's stored key; there is no flag for the key. */
  apiKey?: string;
  keySource: 'env' | 'stored' | 'sandbox' | 'none';
  /** The profile's format: --format and an --output extension outrank it (src/output/write.ts). */
  defaultFormat?: Format;
  /** --timeout, then the profile's, then 30. */
  timeoutSeconds: number;
  /** --retries, then the profile's, then 4. */
  retries: number;
  /** Which header carries the key, per family of endpoints: the profile's, then the interface document's. */
  keyPlacements: KeyPlacements;
  configDir: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** An empty variable counts as unset, as `MKT_API_KEY= mkt …` means "no key from here". */
function envValue(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * Only the profile and the config files: what `mkt config` and `mkt auth logout` need, so that a
 * bad MKT_BASE_URL or a broken stored key cannot stop them from fixing things.
 */
export function resolveProfileFiles(flag: string | undefined, env: Env): { profile: string; files: ConfigFiles } {
  return { profile: resolveProfile(flag, env).profile, files: configFiles(configDirectory(env)) };
}

export function resolveProfile(flag: string | undefined, env: Env): { profile: string; profileSource: SettingSource } {
  if (flag !== undefined) return { profile: checkProfileName(flag, 'from --profile'), profileSource: 'flag' };
  const fromEnv = envValue(env, 'MKT_PROFILE');
  if (fromEnv !== undefined) return { profile: checkProfileName(fromEnv, 'from MKT_PROFILE'), profileSource: 'env' };
  return { profile: 'default', profileSource: 'default' };
}

/**
 * Flag, then variable, then the stored profile, then the default. Synchronous and cheap: it
 * reads the config files with node:fs (src/config/store.ts). Bad values are usage errors.
 */
export function resolveSettings(input: {
  /** --profile, --base-url, --timeout and --retries, as parsed. */
  flags: { profile?: string; baseUrl?: string; timeout?: number; retries?: number };
  env: Env;
  /** False for `auth login`, which replaces the stored key and so must not trip on a broken one. */
  readStoredKey?: boolean;
  /**
   * For a command that can do without the stored settings (--sandbox): a config file that cannot
   * be read is given to this, and its settings are left out, rather than stopping the command.
   */
  onUnreadableSettings?: (error: MktError) => void;
}): ResolvedSettings {
  const { flags, env, readStoredKey = true, onUnreadableSettings } = input;
  const { profile, profileSource } = resolveProfile(flags.profile, env);
  const configDir = configDirectory(env);
  const files = configFiles(configDir);
  const stored = storedSettings(files, profile, onUnreadableSettings);

  const envBaseUrl = envValue(env, 'MKT_BASE_URL');
  let baseUrl: Pick<ResolvedSettings, 'baseUrl' | 'baseUrlSource'> = {};
  if (flags.baseUrl !== undefined) {
    baseUrl = { baseUrl: parseSetting('base_url', flags.baseUrl, { label: '--base-url' }), baseUrlSource: 'flag' };
  } else if (envBaseUrl !== undefined) {
    const origin = { label: 'MKT_BASE_URL', hint: 'Fix or unset MKT_BASE_URL.' };
    baseUrl = { baseUrl: parseSetting('base_url', envBaseUrl, origin), baseUrlSource: 'env' };
  } else if (stored.base_url !== undefined) {
    baseUrl = { baseUrl: stored.base_url, baseUrlSource: 'profile' };
  }

  // The stored key is not read at all when the variable outranks it.
  const envKey = envValue(env, 'MKT_API_KEY');
  const storedKey = envKey === undefined && readStoredKey ? readStoredApiKey(files, profile) : undefined;
  const key: Pick<ResolvedSettings, 'apiKey' | 'keySource'> =
    envKey !== undefined ? { apiKey: checkApiKey(envKey, 'MKT_API_KEY'), keySource: 'env' }
    : storedKey !== undefined ? { apiKey: storedKey, keySource: 'stored' }
    : { keySource: 'none' };

  return {
    profile,
    profileSource,
    ...baseUrl,
    ...key,
    defaultFormat: stored.format,
    timeoutSeconds: flags.timeout ?? stored.timeout ?? SETTING_DEFAULTS.timeout,
    retries: flags.retries ?? stored.retries ?? SETTING_DEFAULTS.retries,
    keyPlacements: {
      exchanges: stored.exchanges_auth ?? DEFAULT_KEY_PLACEMENTS.exchanges,
      results: stored.results_auth ?? DEFAULT_KEY_PLACEMENTS.results,
    },
    configDir,
  };
}

function storedSettings(files: ConfigFiles, profile: string, onUnreadable: ((error: MktError) => void) | undefined): ProfileSettings {
  try {
    return readProfileSettings(files, profile);
  } catch (error) {
    if (!onUnreadable || !(error instanceof MktError)) throw error;
    onUnreadable(error);
    return {};
  }
}

/**
 * A profile named by --profile or MKT_PROFILE that nothing is stored under, when the settings
 * lack the key or the base URL it would have given: most likely a typo, so say so (exit 2) rather
 * than report the missing key. With everything from the environment, any profile name works.
 */
export function checkProfileExists(settings: ResolvedSettings): void {
  if (settings.profileSource !== 'flag' && settings.profileSource !== 'env') return;
  if (settings.apiKey !== undefined && settings.baseUrl !== undefined) return;
  const stored = storedProfileNames(configFiles(settings.configDir));
  if (stored.includes(settings.profile)) return;
  const suggestion = nearestValue(settings.profile, stored);
  const from = settings.profileSource === 'flag' ? '--profile' : 'MKT_PROFILE';
  throw new UsageError(`no profile "${settings.profile}" is stored (${from})${suggestion ? `; did you mean ${suggestion}?` : ''}`, {
    hint: `${stored.length > 0 ? `Stored profiles: ${stored.join(', ')}. ` : ''}To create it: mkt auth login --profile ${settings.profile}`,
  });
}
