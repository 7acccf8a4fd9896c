import { type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { MktError, UsageError } from '../errors.js';

/**
 * What a failed system call says, without Node's decoration: "no space left on device (ENOSPC)"
 * rather than "ENOSPC: no space left on device, write '/x/.a.csv.tmp-12-ab'", whose path may be
 * a temporary file the user never named.
 */
function systemErrorText({ code, message }: NodeJS.ErrnoException): string {
  const description = message.startsWith(`${code}: `) ? message.slice(`${code}: `.length).replace(/, \w+(?: '.*)?$/s, '') : message;
  return `${description} (${code})`;
}

/** An error from a system call (it names the call), as Node makes them: ENOSPC, EACCES, EROFS… */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
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
 * Checks, before any request is sent, that `-o PATH` can become a file: it is not a directory,
 * and a new file's directory exists. What only opening the file can tell (permissions, a full
 * disk) is found when it is opened.
 */
export function checkOutputPath(path: string): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    // ENOTDIR (a file on the path), EACCES, ELOOP: the path cannot be written either.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(path, error);
    const directory = dirname(resolve(path));
    try {
      statSync(directory);
    } catch (directoryError) {
      if ((directoryError as NodeJS.ErrnoException).code !== 'ENOENT') throw cannotWrite(path, directoryError);
      throw new MktError(`cannot write ${path}: the directory ${directory} does not exist`, { cause: directoryError });
    }
    return;
  }
  refuseDirectory(stats, path);
}
