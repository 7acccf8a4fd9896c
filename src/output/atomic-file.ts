import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { cannotWrite, refuseDirectory } from './output-path.js';

/**
 * What is at `file` (where `-o PATH`'s links end) now: nothing, a regular file (its permission
 * bits, for the replacement), or something else that is not a directory (a device, a FIFO),
 * which is written straight into and never replaced.
 */
async function existingTarget(file: string, path: string): Promise<{ kind: 'new' } | { kind: 'file'; mode: number } | { kind: 'special' }> {
  let stats;
  try {
    stats = await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'new' };
    throw cannotWrite(path, error);
  }
  refuseDirectory(stats, path);
  return stats.isFile() ? { kind: 'file', mode: stats.mode & 0o777 } : { kind: 'special' };
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
    // What broke the stream (ENOSPC), rather than what a later write to it then met ("write after destroy").
    throw cannotWrite(path, stream.errored ?? error);
  }
}

/** The pid in `.NAME.tmp-<pid>-<8 hex digits>`, a temporary file of writeAtomically for NAME. */
function temporaryWriter(entry: string, name: string): number | undefined {
  const prefix = `.${name}.tmp-`;
  if (!entry.startsWith(prefix)) return undefined;
  const pid = /^(\d{1,7})-[0-9a-f]{8}$/.exec(entry.slice(prefix.length))?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** Whether process `pid` is gone. One we may not signal (another user's) is alive. */
function isGone(pid: number): boolean {
  // Our own pid on a leftover: an earlier process had it (pids repeat, in a container at once).
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes the temporary files that runs killed while writing NAME left in `directory`: those
 * whose writer is gone. A run still writing NAME keeps its own. Best effort: a file that cannot
 * be removed stays, and the export goes on.
 */
async function removeLeftovers(directory: string, name: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch {
    return; // opening the temporary file will say what is wrong with the directory
  }
  for (const entry of entries) {
    const pid = temporaryWriter(entry, name);
    if (pid !== undefined && pid > 0 && isGone(pid)) await rm(join(directory, entry), { force: true }).catch(() => {});
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
 * Writes `file` whole or not at all: `file` is where `-o PATH` leads (outputDestination), the
 * file behind its symbolic links, so that they stay links, and `path` is what errors name.
 * `write` fills a temporary file (`.name.tmp-<pid>-<random>`) in the same directory, which is
 * synced to disk and renamed over `file` only when `write` resolves. When it rejects, the
 * temporary file is removed and `file` is untouched. After SIGKILL the target is still intact,
 * and the temporary file is removed by the next run that writes it (see removeLeftovers). A
 * device or a FIFO is written straight into.
 */
export async function writeAtomically(file: string, path: string, write: (stream: Writable) => Promise<void>): Promise<void> {
  const existing = await existingTarget(file, path);
  // A device or a FIFO (`-o /dev/null`, a named pipe) cannot be replaced: it is written into.
  if (existing.kind === 'special') return fill(file, { flags: 'w' }, path, write);
  const mode = existing.kind === 'file' ? existing.mode : undefined;
  const directory = dirname(file);
  await removeLeftovers(directory, basename(file));
  const temporary = join(directory, `.${basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let created = false;
  try {
    // A buffer far larger than the default: a whole page of records then goes to the disk while
    // the next is prepared, instead of the export waiting for each write.
    await fill(temporary, { flags: 'wx', flush: true, highWaterMark: 1 << 20 }, path, write, async () => {
      created = true;
      if (mode !== undefined) await chmod(temporary, mode);
    });
    await rename(temporary, file);
  } catch (error) {
    // Only a file this run made: one it could not create may be another's.
    if (created) await rm(temporary, { force: true });
    throw cannotWrite(path, error);
  }
  await syncDirectory(directory);
}
