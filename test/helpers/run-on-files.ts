import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { cleanEnv, MKT_BIN } from './run-mkt.js';

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
  const child = spawn(process.execPath, [MKT_BIN, ...args], {
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
