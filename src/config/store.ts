import {
  chmodSync, closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MktError } from '../core/errors.js';
import { isJsonObject } from '../core/json-object.js';
import type { ConfigFiles, ConfigName, LockClock } from './paths.js';
import { checkApiKey, parseSetting, type ProfileSettings, SETTING_NAMES, type SettingName } from './settings.js';

/*
 * The one module that reads and writes mkt's two files, with node:fs alone. Both look like
 *   { "profiles": { "<profile>": { "<name>": <value>, … }, … } }
 * Reading is synchronous and takes no lock: every command reads, and a writer only ever
 * replaces a file whole (rename), so a reader sees the old file or the new one.
 * Writing is a read-modify-write of one profile under a lock file, so that two `mkt config set`
 * or `mkt auth login` at once both land (`conf`, used before, lost one of them).
 */

type ProfileEntries = Record<string, unknown>;
type ProfileTable = Record<string, ProfileEntries>;

/** The file that holds keys is its owner's alone; so is the directory. */
const FILE_MODES: Record<ConfigName, number> = { settings: 0o644, credentials: 0o600 };
const DIRECTORY_MODE = 0o700;

/** A writer holds the lock for a few milliseconds; five seconds means it is stuck (or its pid was reused). */
const LOCK_WAIT_MS = 5_000;
const LOCK_FIRST_PAUSE_MS = 2;
const LOCK_MAX_PAUSE_MS = 100;
/** A lock file without a pid in it is still being written, unless it is this old: its writer died in between. */
const UNWRITTEN_LOCK_STALE_MS = 2_000;

const FIX_HINT = 'Fix the file by hand, or delete it and set the values again.';

// ---------------------------------------------------------------------------------------------
// Reading


/**
 * What JSON.parse found wrong, where it says: its words only when they quote nothing of the file
 * (which may hold a key), and the line and column from the position it gives.
 */
function jsonProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  const words = /^(Unexpected end of JSON input|Expected (?:[^'"]|'[^']')*?|Unexpected non-whitespace character|Bad (?:control|escaped) character[^'"]*?|Unterminated string[^'"]*?)(?= in JSON| after JSON|$)/
    .exec(message)?.[1];
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  const position = /at position (\d+)/.exec(message);
  let where = '';
  if (lineColumn) {
    where = ` at line ${lineColumn[1]}, column ${lineColumn[2]}`;
  } else if (position) {
    const before = text.slice(0, Number(position[1]));
    where = ` at line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
  }
  return `${words ? words.charAt(0).toLowerCase() + words.slice(1) : 'an unexpected character'}${where}`;
}

/** Never quotes the parser's message whole: it can echo the file's content, and the file may hold a key. */
function notJsonError(file: string, error: unknown, text: string): MktError {
  return new MktError(`${file} is not valid JSON: ${jsonProblem(error, text)}`, { hint: FIX_HINT });
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'error';
}

/** The file's parsed content; undefined when there is no file. */
function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new MktError(`cannot read ${file} (${errorCode(error)})`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw notJsonError(file, error, text);
  }
}

/** The `profiles` table of a file's content, checked for shape (not values). */
function profileTable(data: unknown, file: string): ProfileTable {
  if (data === undefined) return {};
  const profiles = isJsonObject(data) ? (data.profiles ?? {}) : undefined;
  if (!isJsonObject(profiles) || !Object.values(profiles).every(isJsonObject)) {
    throw new MktError(`${file} does not hold {"profiles": {"<name>": {…}}}`, { hint: FIX_HINT });
  }
  return profiles as ProfileTable;
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

/**
 * The names of the profiles stored in either file, sorted, for completing `--profile`. Never
 * throws: a missing or broken file offers nothing, and `mkt config` reports it when used.
 */
export function storedProfileNames(files: ConfigFiles): string[] {
  const names = (file: string): string[] => {
    try {
      return Object.keys(profileTable(readJson(file), file));
    } catch {
      return [];
    }
  };
  return [...new Set([...names(files.settings), ...names(files.credentials)])].sort();
}

// ---------------------------------------------------------------------------------------------
// Writing. Values are validated by the caller.

export async function setSetting<K extends SettingName>(
  files: ConfigFiles, profile: string, name: K, value: NonNullable<ProfileSettings[K]>,
): Promise<void> {
  await update(files, 'settings', profile, (entries) => put(entries, name, value));
}

/** False when the setting was not stored (and nothing was written). */
export function unsetSetting(files: ConfigFiles, profile: string, name: SettingName): Promise<boolean> {
  return update(files, 'settings', profile, (entries) => remove(entries, name));
}

export async function storeApiKey(files: ConfigFiles, profile: string, key: string): Promise<void> {
  await update(files, 'credentials', profile, (entries) => put(entries, 'api_key', key));
}

/** False when the profile had no stored key (and nothing was written). */
export function removeApiKey(files: ConfigFiles, profile: string): Promise<boolean> {
  return update(files, 'credentials', profile, (entries) => remove(entries, 'api_key'));
}

function put(entries: ProfileEntries, key: string, value: unknown): boolean {
  entries[key] = value;
  return true;
}

function remove(entries: ProfileEntries, key: string): boolean {
  if (!Object.hasOwn(entries, key)) return false;
  delete entries[key];
  return true;
}

/**
 * Applies `change` to one profile's entries, under the file's lock, and writes the file when it
 * reports a change. Other profiles, and entries or top-level keys mkt does not know, are kept;
 * a profile left empty is dropped. A corrupt file is reported and never overwritten.
 */
async function update(
  files: ConfigFiles, name: ConfigName, profile: string, change: (entries: ProfileEntries) => boolean,
): Promise<boolean> {
  const file = files[name];
  // Nothing to change is decided before taking the lock or creating anything, so that
  // `mkt auth logout` of a profile without a key works in a directory mkt cannot write to.
  // A file that cannot be read is left to the steps below, which say why.
  let before: ProfileEntries | undefined;
  try {
    before = profileEntries(file, profile);
  } catch {
    before = undefined;
  }
  if (before && !change({ ...before })) return false;
  const created = usable(files.dir, () => makeDirectory(files.dir));
  // A directory that holds keys is its owner's alone, whoever created it.
  if (created || name === 'credentials' || exists(files.credentials)) usable(files.dir, () => makePrivate(files.dir));
  const unlock = await lock(files.dir, file, files.lockClock);
  try {
    const data = readJson(file);
    const profiles = profileTable(data, file);
    const entries = { ...(Object.hasOwn(profiles, profile) ? profiles[profile] : {}) };
    if (!change(entries)) return false;
    const next: ProfileTable = { ...profiles, [profile]: entries };
    if (Object.keys(entries).length === 0) delete next[profile];
    const content = { ...(isJsonObject(data) ? data : {}), profiles: next };
    // Tab-indented, as `conf` wrote them: files from before change only where a value does.
    usable(files.dir, () => replaceFile(file, `${JSON.stringify(content, undefined, '\t')}\n`, FILE_MODES[name]));
    return true;
  } finally {
    unlock();
  }
}

/**
 * Writes a temporary file beside `file`, private from its first byte, and renames it over `file`:
 * a reader, or a crash, sees the old content or the new, never half of it. The mode is set
 * explicitly, so that neither the umask nor a file opened up by hand (0644 credentials) survives.
 */
export function replaceFile(file: string, text: string, mode: number): void {
  const temp = `${file}.${process.pid}.tmp`;
  rmSync(temp, { force: true }); // left by a writer that crashed with our pid: never reuse its mode
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      fchmodSync(fd, mode);
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Creates the directory and its missing parents, 0700, one level at a time. Not
 * `mkdirSync(dir, { recursive: true })`: under /proc it gets ENOENT for a parent that exists and
 * retries for ever (Node 20). Returns whether this call created `dir`.
 */
export function makeDirectory(dir: string): boolean {
  try {
    return makeOneDirectory(dir);
  } catch (error) {
    const parent = path.dirname(dir);
    if (errorCode(error) !== 'ENOENT' || parent === dir) throw error;
  }
  makeDirectory(path.dirname(dir));
  return makeOneDirectory(dir); // a second ENOENT is thrown, not retried
}

/** False when the directory exists already (another mkt may have just created it). */
function makeOneDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: DIRECTORY_MODE });
    return true;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    if (statSync(dir).isDirectory()) return false;
    throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
  }
}

/**
 * chmod 0700 (mkdir's mode went through the umask). Not a shared directory with the sticky bit
 * (MKT_CONFIG_DIR=/tmp), which must stay open; not someone else's (EPERM): the files in it still
 * get their own modes.
 */
function makePrivate(dir: string): void {
  const { mode } = statSync(dir);
  if ((mode & 0o1000) !== 0 || (mode & 0o777) === DIRECTORY_MODE) return;
  try {
    chmodSync(dir, DIRECTORY_MODE);
  } catch (error) {
    if (errorCode(error) !== 'EPERM') throw error;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Runs a file-system step of a write; its failure means the directory cannot be used. */
function usable<T>(dir: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof MktError) throw error;
    throw new MktError(
      `cannot write to the config directory ${dir} (${errorCode(error)}); set MKT_CONFIG_DIR to a directory you can write to`,
      { cause: error },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The lock: `<file>.lock`, created with O_EXCL, holding the writer's pid.

const REAL_CLOCK: LockClock = { now: Date.now, sleep };

/** Waits for the lock of `file`, taking over one whose writer is dead; returns its release. */
async function lock(dir: string, file: string, clock: LockClock = REAL_CLOCK): Promise<() => void> {
  const lockFile = `${file}.lock`;
  const deadline = clock.now() + LOCK_WAIT_MS;
  let pause = LOCK_FIRST_PAUSE_MS;
  for (;;) {
    const holder = usable(dir, () => tryLock(lockFile));
    if (holder === 'ours') return () => rmSync(lockFile, { force: true });
    if (clock.now() >= deadline) {
      const by = typeof holder === 'number' ? ` by process ${holder}` : '';
      throw new MktError(`cannot lock ${file}: ${lockFile} has been held${by} for over ${LOCK_WAIT_MS / 1000} s`, {
        hint: `If no other mkt is writing its settings, delete ${lockFile}.`,
      });
    }
    if (holder === 'stale' || holder === 'free') continue; // just removed, or released meanwhile: try again now
    // Jittered, so that waiters that collided once do not collide again.
    await clock.sleep(pause * (0.5 + Math.random()));
    pause = Math.min(pause * 2, LOCK_MAX_PAUSE_MS);
  }
}

/** One try: 'ours', or who holds the lock ('stale' once a dead writer's lock has been removed). */
function tryLock(lockFile: string): ReturnType<typeof lockHolder> | 'ours' {
  if (tryCreate(lockFile)) return 'ours';
  const holder = lockHolder(lockFile);
  if (holder !== 'stale') return holder;
  // Only one process at a time may judge and remove a stale lock: otherwise two that saw the same
  // dead pid could each remove it, the second removing the lock the first had just taken.
  const breaker = `${lockFile}.break`;
  if (tryCreate(breaker)) {
    try {
      if (lockHolder(lockFile) === 'stale') rmSync(lockFile, { force: true });
    } finally {
      rmSync(breaker, { force: true });
    }
    return 'stale';
  }
  // Another process is removing it. A breaker that died inside those few lines leaves its file
  // behind; that file is stale in turn.
  if (lockHolder(breaker) === 'stale') rmSync(breaker, { force: true });
  return 'busy';
}

/** Creates `lockFile` holding our pid; false when it exists already. */
function tryCreate(lockFile: string): boolean {
  try {
    writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * The live pid that holds the lock; 'stale' when that process is gone; 'busy' while its creator
 * has not written its pid yet; 'free' when there is no lock.
 */
function lockHolder(lockFile: string): number | 'stale' | 'free' | 'busy' {
  let text: string;
  let age: number;
  try {
    text = readFileSync(lockFile, 'utf8');
    age = Date.now() - statSync(lockFile).mtimeMs;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'free';
    throw error;
  }
  const pid = /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
  if (pid === undefined) return age > UNWRITTEN_LOCK_STALE_MS ? 'stale' : 'busy';
  return isAlive(pid) ? pid : 'stale';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: no signal, only the check that the process exists
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM'; // it exists, and belongs to someone else
  }
}
