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
  /**
   * The clock a writer waits for another's lock on (src/config/store.ts): a test hands in one
   * that skips the wait. @default Date.now and a real timer
   */
  lockClock?: LockClock;
}

export interface LockClock {
  now: () => number;
  sleep: (ms: number) => Promise<unknown>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** One kind of OS directory: the variable that overrides it, and where each OS keeps that kind. */
interface DirectoryKind {
  override: 'MKT_CONFIG_DIR' | 'MKT_CACHE_DIR' | 'MKT_DATA_DIR';
  /** `%VAR%\mkt\<windows.under>`, `%VAR%` defaulting to `~\AppData\<windows.fallback>`. */
  windows: { variable: 'APPDATA' | 'LOCALAPPDATA'; fallback: 'Roaming' | 'Local'; under: string };
  /** `~/Library/<darwin>/mkt`. */
  darwin: string;
  /** `$XDG_…/mkt`, or `~/<xdg.fallback>/mkt` */
  xdg: { variable: 'XDG_CONFIG_HOME' | 'XDG_CACHE_HOME' | 'XDG_DATA_HOME'; fallback: string };
}

function osDirectory(kind: DirectoryKind, env: Env, platform: NodeJS.Platform, home: string): string {
  const override = env[kind.override]?.trim();
  if (override) return path.resolve(override);
  if (platform === 'win32') {
    const { variable, fallback, under } = kind.windows;
    return path.win32.join(env[variable] || path.win32.join(home, 'AppData', fallback), 'mkt', under);
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', kind.darwin, 'mkt');
  // The XDG spec says a relative XDG_*_HOME is invalid and must be ignored.
  const xdg = env[kind.xdg.variable];
  return path.posix.join(xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, kind.xdg.fallback), 'mkt');
}

/**
 * Where `mkt` keeps its files: `MKT_CONFIG_DIR` if set; else the OS config directory —
 * `$XDG_CONFIG_HOME/mkt` or `~/.config/mkt` on Linux and other Unixes,
 * `~/Library/Preferences/mkt` on macOS, `%APPDATA%\mkt\Config` on Windows.
 * The reader and the writer both call this, so they always agree.
 */
export function configDirectory(env: Env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  return osDirectory(
    {
      override: 'MKT_CONFIG_DIR',
      windows: { variable: 'APPDATA', fallback: 'Roaming', under: 'Config' },
      darwin: 'Preferences',
      xdg: { variable: 'XDG_CONFIG_HOME', fallback: '.config' },
    },
    env,
    platform,
    home,
  );
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
export function cacheDirectory(env: Env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  return osDirectory(
    {
      override: 'MKT_CACHE_DIR',
      windows: { variable: 'LOCALAPPDATA', fallback: 'Local', under: 'Cache' },
      darwin: 'Caches',
      xdg: { variable: 'XDG_CACHE_HOME', fallback: '.cache' },
    },
    env,
    platform,
    home,
  );
}

/**
 * Where `mkt` keeps data it builds up (the mirrors): `MKT_DATA_DIR` if set; else the OS data
 * directory — `$XDG_DATA_HOME/mkt` or `~/.local/share/mkt` on Linux and other Unixes,
 * `~/Library/Application Support/mkt` on macOS, `%LOCALAPPDATA%\mkt\Data` on Windows.
 */
export function dataDirectory(env: Env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  return osDirectory(
    {
      override: 'MKT_DATA_DIR',
      windows: { variable: 'LOCALAPPDATA', fallback: 'Local', under: 'Data' },
      darwin: 'Application Support',
      xdg: { variable: 'XDG_DATA_HOME', fallback: '.local/share' },
    },
    env,
    platform,
    home,
  );
}
