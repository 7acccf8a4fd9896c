import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { MktError, UsageError } from '../errors.js';

/** A file system failure on the way to `path`, as the user sees it. */
function cannotWrite(path: string, error: unknown): MktError {
  return new MktError(`cannot write ${path}: ${(error as Error).message}`, {
    hint: 'Check that the directory exists and that you may write to it.',
    cause: error,
  });
}

/**
 * What is at `path` now: nothing, a regular file (its permission bits, for the replacement, and
 * its real path, so that a symbolic link is followed and stays a link), or something else that is
 * not a directory (a device, a FIFO), which is written straight into and never replaced.
 */
async function existingTarget(path: string): Promise<{ kind: 'new' } | { kind: 'file'; mode: number; real: string } | { kind: 'special' }> {
  let stats;
  try {
    stats = await stat(path);
  } catch (error) {
    // ENOTDIR (a file on the path), EACCES, ELOOP: the path cannot be written either.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'new' };
    throw cannotWrite(path, error);
  }
  if (stats.isDirectory()) throw new UsageError(`cannot write to ${path}: it is a directory`, { hint: 'Give a file name to -o.' });
  if (!stats.isFile()) return { kind: 'special' };
  return { kind: 'file', mode: stats.mode & 0o777, real: await realpath(path) };
}

/**
 * Opens `file` as a stream, hands it to `write`, and waits until all of it is written. A failure
 * to open is one line naming `path` (what the user gave). On a failure after that the stream is
 * abandoned: an exporter still winding down may write to it, and that must not crash us.
 */
async function fill(
  file: string,
  options: Parameters<typeof createWriteStream>[1],
  path: string,
  write: (stream: Writable) => Promise<void>,
  beforeWrite: () => Promise<void> = async () => {},
): Promise<void> {
  const stream = createWriteStream(file, options);
  try {
    await once(stream, 'open');
  } catch (error) {
    throw cannotWrite(path, error);
  }
  try {
    await beforeWrite();
    await write(stream);
    stream.end();
    await finished(stream);
  } catch (error) {
    stream.on('error', () => {});
    stream.destroy();
    throw error;
  }
}

/** Makes the rename itself durable. Not every platform can open a directory: best effort. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // the file's own data is already synced; only the rename's durability is at stake
  }
}

/**
 * Writes `path` whole or not at all. `write` fills a temporary file (`.name.tmp-<pid>-<random>`)
 * in the same directory as the file (through a symbolic link, the file it points to, so that the
 * link stays), which is synced to disk and renamed over it only when `write` resolves. When it
 * rejects, the temporary file is removed and `path` is untouched. After SIGKILL the target is
 * still intact; a stray temporary file may remain. A device or a FIFO is written straight into.
 */
export async function writeAtomically(path: string, write: (stream: Writable) => Promise<void>): Promise<void> {
  const existing = await existingTarget(path);
  // A device or a FIFO (`-o /dev/null`, a named pipe) cannot be replaced: it is written into.
  if (existing.kind === 'special') return fill(path, { flags: 'w' }, path, write);
  const mode = existing.kind === 'file' ? existing.mode : undefined;
  const target = existing.kind === 'file' ? existing.real : resolve(path);
  const directory = dirname(target);
  const temporary = join(directory, `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let created = false;
  try {
    // 1 MB rather than 16 KB: a page of records (~100 KB) then goes to the disk while the next is
    // prepared, instead of the export waiting for each write (docs/performance.md).
    await fill(temporary, { flags: 'wx', flush: true, highWaterMark: 1 << 20 }, path, write, async () => {
      created = true;
      if (mode !== undefined) await chmod(temporary, mode);
    });
    await rename(temporary, target);
  } catch (error) {
    // Only a file this run made: one it could not create may be another's.
    if (created) await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}
