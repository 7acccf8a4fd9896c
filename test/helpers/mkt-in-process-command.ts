import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runInProcess } from './run-in-process.js';
import { tempDir } from './temp-dir.js';

// A script that calls `mkt` several times (a recipe of docs/recipes.md) needs a command named mkt
// on its PATH; a node process for each call starts Node and DuckDB again. This `mkt` is a bash
// script that hands its arguments and environment to the test's own process over a socket, where
// runInProcess runs them, and gives back what that run wrote and its exit code.

/**
 * Serves the file's in-process mkt commands while its tests run. `.install(dir)` writes an
 * executable `mkt` into `dir`, for a PATH. What the process alone shows (signals, bin/mkt.js,
 * stdin, the working directory: paths are taken as they are, relative ones from the test's) is
 * not there: for scripts that give mkt absolute paths and read nothing it does not print.
 */
export function useInProcessMkt(): { install(dir: string): void } {
  let server: Server | undefined;
  let port = 0;
  const outputs = tempDir('mkt-in-process-');
  let calls = 0;

  beforeAll(async () => {
    server = createServer((socket) => {
      const chunks: Buffer[] = [];
      let started = false;
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const request = started ? undefined : parse(Buffer.concat(chunks));
        if (!request) return;
        started = true;
        const call = ++calls;
        runInProcess(request.args, { env: request.env }).then(
          (run) => {
            const out = join(outputs, `${call}.out`);
            const err = join(outputs, `${call}.err`);
            writeFileSync(out, run.stdoutBytes);
            writeFileSync(err, run.stderr);
            socket.end(`${run.code} ${out} ${err}\n`);
          },
          (error: unknown) => {
            const err = join(outputs, `${call}.err`);
            writeFileSync(err, `in-process mkt: ${String(error)}\n`);
            socket.end(`70 /dev/null ${err}\n`);
          },
        );
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  return {
    install(dir: string): void {
      const script = join(dir, 'mkt');
      writeFileSync(
        script,
        `#!/bin/bash
exec 3<>/dev/tcp/127.0.0.1/${port} || exit 70
names=($(compgen -e))
{ printf '%s\\0' "$#" "$@" "\${#names[@]}"; for name in "\${names[@]}"; do printf '%s=%s\\0' "$name" "\${!name}"; done; } >&3
read -r code out err <&3 || exit 70
cat "$out"
cat "$err" >&2
exit "$code"
`,
      );
      chmodSync(script, 0o755);
    },
  };
}

/** The call a script sent: its argument count and arguments, then its variables' count and NAME=value entries, each ended by a NUL; undefined until all of it has come. */
function parse(bytes: Buffer): { args: string[]; env: Record<string, string> } | undefined {
  const fields = bytes.toString('utf8').split('\0');
  fields.pop(); // what follows the last NUL: a field still coming, or nothing
  const argc = Number(fields[0]);
  if (fields.length < 2 + argc) return undefined;
  const envc = Number(fields[1 + argc]);
  if (fields.length < 2 + argc + envc) return undefined;
  const env: Record<string, string> = {};
  for (const entry of fields.slice(2 + argc, 2 + argc + envc)) {
    const equals = entry.indexOf('=');
    env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return { args: fields.slice(1, 1 + argc), env };
}
