import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, closeSync, cpSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanEnv, MKT_BIN } from './run-mkt.js';
import { tempDir } from './temp-dir.js';

export interface OnFilesOptions {
  /** Variables on top of a clean environment, as for runMkt. */
  env?: Record<string, string | undefined>;
  /** A file stdin reads (`/dev/zero`); /dev/null by default. */
  stdin?: string;
  /** A file stdout writes to (`/dev/full`); /dev/null by default. */
  stdout?: string;
  /** Files opened for appending (`>>`), by descriptor: `{ 1: log }` in place of stdout, `{ 3: log }` beyond it. */
  append?: Readonly<Record<number, string>>;
  /** Run as this user and group id (root only). */
  uid?: number;
  /** The bin/mkt.js to run (mktRunnableBy's); this build's by default. */
  bin?: string;
}

/** Runs `node bin/mkt.js args…` with stdin, stdout and any `append` descriptors on files rather than pipes: its exit code and stderr. */
export async function runMktOnFiles(args: readonly string[], options: OnFilesOptions = {}): Promise<{ code: number | null; stderr: string }> {
  const files: Record<number, [file: string, flags: string]> = { 0: [options.stdin ?? '/dev/null', 'r'], 1: [options.stdout ?? '/dev/null', 'w'] };
  for (const [descriptor, file] of Object.entries(options.append ?? {})) files[Number(descriptor)] = [file, 'a'];
  const count = Math.max(2, ...Object.keys(files).map(Number)) + 1;
  const stdio = Array.from({ length: count }, (_, descriptor) => {
    const file = files[descriptor];
    return file ? openSync(...file) : descriptor === 2 ? 'pipe' : 'ignore';
  });
  const child = spawn(process.execPath, [options.bin ?? MKT_BIN, ...args], {
    env: cleanEnv(options.env ?? {}),
    stdio,
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  for (const entry of stdio) if (typeof entry === 'number') closeSync(entry);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

/** Whether user `uid` can run Node on `bin`: `--help` loads the whole bundle. */
const runs = (bin: string, uid: number) =>
  spawnSync(process.execPath, [bin, '--help'], { env: cleanEnv({}), stdio: 'ignore', uid, gid: uid }).status === 0;

/**
 * A bin/mkt.js that user `uid` (run as by root) can run: this build's (as for no user named),
 * or, when the clone sits
 * where that user cannot reach (a 0700 directory), a copy of the build in a temporary directory.
 * A reason instead when neither runs, Node itself being out of the user's reach, say.
 */
export function mktRunnableBy(uid: number | undefined): { bin: string; reason?: never } | { bin?: never; reason: string } {
  if (uid === undefined || runs(MKT_BIN, uid)) return { bin: MKT_BIN };
  const root = join(dirname(MKT_BIN), '..');
  const copy = tempDir('mkt-build-');
  // The bundle is the whole program but for DuckDB; package.json gives the version.
  for (const entry of ['bin', join('dist', 'bundle'), 'package.json']) cpSync(join(root, entry), join(copy, entry), { recursive: true });
  chmodSync(copy, 0o755);
  const bin = join(copy, 'bin', 'mkt.js');
  if (runs(bin, uid)) return { bin };
  return { reason: `user ${uid} can run neither ${MKT_BIN} nor a copy of the build in ${copy}, nor perhaps ${process.execPath}` };
}
