import { fstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { MktError, UsageError } from '../core/errors.js';

/**
 * What a failed system call says, without Node's decoration: "no space left on device (ENOSPC)"
 * rather than "ENOSPC: no space left on device, write '/x/.a.csv.tmp-12-ab'", whose path may be
 * a temporary file the user never named.
 */
export function systemErrorText({ code, message }: NodeJS.ErrnoException): string {
  const description = message.startsWith(`${code}: `) ? message.slice(`${code}: `.length).replace(/, \w+(?: '.*)?$/s, '') : message;
  return `${description} (${code})`;
}

/** An error from a system call (it names the call), as Node makes them: ENOSPC, EACCES, EROFS… */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return typeof (error as NodeJS.ErrnoException | null)?.code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/**
 * A file system failure on the way to `what` (a path the user gave, or standard output) as one
 * line, exit 1. Any other error (the export's own, a network failure) is returned as it is.
 */
export function cannotWrite(what: string, error: unknown): unknown {
  return isSystemError(error) ? new MktError(`cannot write ${what}: ${systemErrorText(error)}`, { cause: error }) : error;
}

/** A directory cannot be a file: a usage error, so nothing is sent. */
export function refuseDirectory(stats: Stats, path: string): void {
  if (stats.isDirectory()) throw new UsageError(`cannot write to ${path}: it is a directory`, { hint: 'Give a file name to -o.' });
}

/**
 * Where `-o PATH` leads: one of this process's open descriptors (`/dev/stdout`, `/dev/fd/3`,
 * `/proc/self/fd/3`, or a link to one), which is written through and never replaced, or the
 * file its symbolic links end at, which may not exist yet (a dangling link's target).
 */
export type OutputDestination = { descriptor: number } | { file: string };

/** Links followed before giving up, as Linux's own limit on the links of one path. */
const MAX_LINKS = 40;

/**
 * A directory whose entries are this process's descriptors. Linux's `/proc/self/fd` and
 * `/dev/fd` (a link to it) resolve to `/proc/<pid>/fd`; the BSDs and macOS have `/dev/fd`.
 */
function isDescriptorDirectory(directory: string): boolean {
  if (directory === '/dev/fd') return true;
  const parts = directory.split('/');
  if (parts[1] !== 'proc' || parts[2] !== String(process.pid) || parts.at(-1) !== 'fd') return false;
  // /proc/<pid>/fd, or a thread's /proc/<pid>/task/<tid>/fd (/proc/thread-self/fd).
  return parts.length === 4 || (parts.length === 6 && parts[3] === 'task' && /^\d+$/.test(parts[4] as string));
}

/** The link text of `/proc/self/fd/<descriptor>` (`pipe:[123]`, a path), or undefined off Linux. */
function descriptorLink(descriptor: number | string): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${descriptor}`);
  } catch {
    return undefined;
  }
}

/** Whether `/proc/self/fdinfo` says the descriptor was opened for reading only (O_RDONLY, 0). */
function isReadOnly(descriptor: string): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${descriptor}`, 'utf8'))?.[1];
    return flags !== undefined && (Number.parseInt(flags, 8) & 0o3) === 0;
  } catch {
    return false;
  }
}

/**
 * Whether this process holds the reading end of the pipe at `descriptor`: Node's event loop
 * wakes itself through such pipes, and writing into one crashes the process.
 */
function isPipeIntoItself(descriptor: number): boolean {
  const link = descriptorLink(descriptor);
  if (link === undefined || !link.startsWith('pipe:')) return false;
  return readdirSync('/proc/self/fd').some((entry) => entry !== String(descriptor) && descriptorLink(entry) === link && isReadOnly(entry));
}

/**
 * Checks that `descriptor` is one mkt was given (`3>>log`): open, a file, a pipe, a socket or
 * a device, and not one of Node's own (its event loop's descriptors and pipes).
 */
function checkDescriptor(descriptor: number, path: string): void {
  let stats: Stats;
  try {
    stats = fstatSync(descriptor);
  } catch (error) {
    throw cannotWrite(path, error); // EBADF: not open
  }
  refuseDirectory(stats, path);
  const writable = stats.isFile() || stats.isFIFO() || stats.isSocket() || stats.isCharacterDevice() || stats.isBlockDevice();
  if (!writable || (stats.isFIFO() && isPipeIntoItself(descriptor))) {
    throw new UsageError(`cannot write ${path}: descriptor ${descriptor} is not one mkt was given, but one of its own`, {
      hint: 'Open it for mkt (`3>>file`), or give a file name to -o.',
    });
  }
}

/**
 * Follows `path`'s symbolic links one at a time, each from its directory's real path, and
 * stops at one of this process's descriptors or at a name that is not a link. Following them
 * whole (realpath) would read through `/proc/self/fd/1` to the file behind standard output,
 * and replace it; and would fail on a link whose target does not exist yet. Names are joined,
 * never normalised, so that `..` after a link is the kernel's `..`.
 */
export function outputDestination(path: string): OutputDestination {
  let current = isAbsolute(path) ? path : `${process.cwd()}${sep}${path}`;
  for (let links = 0; links <= MAX_LINKS; links++) {
    let directory: string;
    try {
      directory = realpathSync.native(dirname(current));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(path, error);
      throw new MktError(`cannot write ${path}: the directory ${dirname(current)} does not exist`, { cause: error });
    }
    const name = basename(current);
    if (/^\d+$/.test(name) && isDescriptorDirectory(directory)) {
      checkDescriptor(Number(name), path);
      return { descriptor: Number(name) };
    }
    current = join(directory, name);
    let target: string;
    try {
      target = readlinkSync(current);
    } catch (error) {
      // EINVAL: not a link; ENOENT: nothing there yet. Anything else (EACCES) cannot be written either.
      const { code } = error as NodeJS.ErrnoException;
      if (code === 'EINVAL' || code === 'ENOENT') return { file: current };
      throw cannotWrite(path, error);
    }
    // Another process's descriptor on a pipe or socket (`/proc/<pid>/fd/1` -> `pipe:[123]`) is no
    // path: opened as it is, the kernel reaches the pipe.
    if (!isAbsolute(target) && /^(pipe|socket):\[\d+\]$/.test(target) && directory.startsWith('/proc/')) return { file: current };
    current = isAbsolute(target) ? target : `${directory}${sep}${target}`;
  }
  throw new MktError(`cannot write ${path}: too many levels of symbolic links (ELOOP)`);
}

/**
 * Checks, before any request is sent, that `-o PATH` can be written: it leads to a descriptor
 * mkt was given or to a file that is not a directory, and a new file's directory exists. What
 * only opening or writing can tell (permissions, a full disk) is found then.
 */
export function checkOutputPath(path: string): void {
  const destination = outputDestination(path);
  if ('descriptor' in destination) return;
  let stats: Stats;
  try {
    stats = statSync(destination.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // a new file, in a directory that exists
    throw cannotWrite(path, error);
  }
  refuseDirectory(stats, path);
}
