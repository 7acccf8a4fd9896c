import { homedir } from 'node:os';
import path from 'node:path';

/** The files `mkt` keeps in its config directory: `<name>.json`, written by src/config/store.ts. */
export const CONFIG_NAMES = {
  /** Settings per profile: base_url, format, timeout, retries. */
  settings: 'config',
  /** API keys per profile; mode 0600. */
  credentials: 'credentials',
} as const;
export type ConfigName = keyof typeof CONFIG_NAMES;

export interface ConfigFiles {
  dir: string;
  settings: string;
  credentials: string;
}

/**
 * Where `mkt` keeps its files: `MKT_CONFIG_DIR` if set; else the OS config directory —
 * `$XDG_CONFIG_HOME/mkt` or `~/.config/mkt` on Linux and other Unixes,
 * `~/Library/Preferences/mkt` on macOS, `%APPDATA%\mkt\Config` on Windows.
 * The reader and the writer both call this, so they always agree.
 */
export function configDirectory(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env.MKT_CONFIG_DIR?.trim();
  if (override) return path.resolve(override);
  if (platform === 'win32') {
    return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'mkt', 'Config');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Preferences', 'mkt');
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME;
  return path.posix.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config'), 'mkt');
}

export function configFiles(dir: string): ConfigFiles {
  return {
    dir,
    settings: path.join(dir, `${CONFIG_NAMES.settings}.json`),
    credentials: path.join(dir, `${CONFIG_NAMES.credentials}.json`),
  };
}

/**
 * Where `mkt` keeps what it can fetch again (the exchange list): `MKT_CACHE_DIR` if set; else the
 * OS cache directory — `$XDG_CACHE_HOME/mkt` or `~/.cache/mkt` on Linux and other Unixes,
 * `~/Library/Caches/mkt` on macOS, `%LOCALAPPDATA%\mkt\Cache` on Windows.
 */
export function cacheDirectory(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env.MKT_CACHE_DIR?.trim();
  if (override) return path.resolve(override);
  if (platform === 'win32') {
    return path.win32.join(env.LOCALAPPDATA || path.win32.join(home, 'AppData', 'Local'), 'mkt', 'Cache');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Caches', 'mkt');
  const xdg = env.XDG_CACHE_HOME;
  return path.posix.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.cache'), 'mkt');
}
