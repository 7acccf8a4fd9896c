import { mkdirSync } from 'node:fs';
import type Conf from 'conf';
import { configFiles, CONFIG_NAMES, type ConfigFiles, type ConfigName } from './paths.js';
import { notJsonError, type ProfileEntries, type ProfileTable, profileTable } from './reader.js';
import type { ProfileSettings, SettingName } from './settings.js';

/** Writes profiles through `conf`, the one writer of mkt's files. Values are validated by the caller. */
export interface ProfileStore {
  readonly files: ConfigFiles;
  setSetting<K extends SettingName>(profile: string, name: K, value: NonNullable<ProfileSettings[K]>): void;
  /** False when the setting was not stored. */
  unsetSetting(profile: string, name: SettingName): boolean;
  storeApiKey(profile: string, key: string): void;
  /** False when the profile had no stored key. */
  removeApiKey(profile: string): boolean;
}

type ProfilesConf = Conf<{ profiles: ProfileTable }>;

/** The file that holds keys is its owner's alone; so is the directory. */
const FILE_MODES: Record<ConfigName, number> = { settings: 0o644, credentials: 0o600 };
const DIRECTORY_MODE = 0o700;

/** Loads `conf` (on demand: it is the slowest import in mkt) and opens the files in `dir`. */
export async function openProfileStore(dir: string): Promise<ProfileStore> {
  const { default: ConfClass } = await import('conf');
  const files = configFiles(dir);
  const opened = new Map<ConfigName, ProfilesConf>();

  function open(name: ConfigName): ProfilesConf {
    let conf = opened.get(name);
    if (!conf) {
      // conf would create the directory with the umask's mode; create it first, private.
      mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE });
      conf = guard(files[name], () => new ConfClass<{ profiles: ProfileTable }>({
        cwd: dir,
        configName: CONFIG_NAMES[name],
        configFileMode: FILE_MODES[name],
        accessPropertiesByDotNotation: false,
      }));
      opened.set(name, conf);
    }
    return conf;
  }

  /** Applies `change` to one profile's entries; writes only when it reports a change. */
  function update(name: ConfigName, profile: string, change: (entries: ProfileEntries) => boolean): boolean {
    const conf = open(name);
    const profiles = profileTable(guard(files[name], () => conf.store), files[name]);
    const entries = { ...(Object.hasOwn(profiles, profile) ? profiles[profile] : {}) };
    if (!change(entries)) return false;
    const next = { ...profiles, [profile]: entries };
    if (Object.keys(entries).length === 0) delete next[profile];
    conf.set('profiles', next);
    return true;
  }

  function remove(entries: ProfileEntries, key: string): boolean {
    if (!Object.hasOwn(entries, key)) return false;
    delete entries[key];
    return true;
  }

  function put(entries: ProfileEntries, key: string, value: unknown): boolean {
    entries[key] = value;
    return true;
  }

  return {
    files,
    setSetting(profile, name, value) {
      update('settings', profile, (entries) => put(entries, name, value));
    },
    unsetSetting: (profile, name) => update('settings', profile, (entries) => remove(entries, name)),
    storeApiKey(profile, key) {
      update('credentials', profile, (entries) => put(entries, 'api_key', key));
    },
    removeApiKey: (profile) => update('credentials', profile, (entries) => remove(entries, 'api_key')),
  };
}

/** conf throws the parser's SyntaxError for a corrupt file; say which file instead. */
function guard<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SyntaxError) throw notJsonError(file);
    throw error;
  }
}
