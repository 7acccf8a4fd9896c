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
  /** Run as this user and group id (root only). */
  uid?: number;
}

/** Runs `node bin/mkt.js args…` with stdin and stdout on files rather than pipes: its exit code and stderr. */
export async function runMktOnFiles(args: readonly string[], options: OnFilesOptions = {}): Promise<{ code: number | null; stderr: string }> {
  const stdin = openSync(options.stdin ?? '/dev/null', 'r');
  const stdout = openSync(options.stdout ?? '/dev/null', 'w');
  const child = spawn(process.execPath, [MKT_BIN, ...args], {
    env: cleanEnv(options.env ?? {}),
    stdio: [stdin, stdout, 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  closeSync(stdin);
  closeSync(stdout);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}
