import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { runInProcess } from './run-in-process.js';
import { MKT_BIN } from './run-mkt.js';
import { tempDir } from './temp-dir.js';

// A script that calls `mkt` several times (a recipe of docs/recipes.md) needs a command named mkt
// on its PATH; a node process for each call starts Node and DuckDB again. This `mkt` is a bash
// script that hands its arguments, environment, working directory and standard input to the
// test's own process over a socket, where run() runs them as runInProcess does, and gives back
// what that run wrote and its exit code.

/** A call of a command by a script: its arguments and environment, and its stdin (empty without readsStdin). */
export interface InProcessCall {
  args: string[];
  env: Record<string, string>;
  stdin: Readable;
}

/** What a command of the script's gives back: its exit code and what it wrote. */
export interface InProcessEnding {
  code: number;
  stdout: Buffer | string;
  stderr: Buffer | string;
}

export interface InProcessMktOptions {
  /** Commands (first arguments) that run as a process of bin/mkt.js all the same: `mkt sandbox &`, which a script stops with kill. */
  processFor?: readonly string[];
  /** The script's stdin is mkt's, read to its end first: for scripts whose stdin ends. Without it, mkt's stdin is empty. */
  readsStdin?: boolean;
  /** More commands of the script's PATH, by name, run in this process as mkt is. */
  others?: Record<string, (call: InProcessCall) => Promise<InProcessEnding>>;
}

/**
 * Serves the file's in-process mkt (and `others`) while its tests run. `.install(dir)` writes an
 * executable `mkt`, and one for each of `others`, into `dir`, for a PATH. What a process alone
 * shows (signals, bin/mkt.js, a terminal) is not there. A run takes the script's working
 * directory, this process's, for the time it runs.
 */
export function useInProcessMkt({ processFor = [], readsStdin = false, others = {} }: InProcessMktOptions = {}): { install(dir: string): void } {
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
        const err = join(outputs, `${call}.err`);
        runFor(request, request.command === 'mkt' ? runMkt : others[request.command]!).then(
          ({ code, stdout, stderr }) => {
            const out = join(outputs, `${call}.out`);
            writeFileSync(out, stdout);
            writeFileSync(err, stderr);
            socket.end(`${code} ${out} ${err}\n`);
          },
          (error: unknown) => {
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
      for (const command of ['mkt', ...Object.keys(others)]) {
        const script = join(dir, command);
        const spawned = command !== 'mkt' ? '' : processFor.map((first) => `[ "$1" = '${first}' ] && exec '${process.execPath}' '${MKT_BIN}' "$@"\n`).join('');
        writeFileSync(
          script,
          `#!/bin/bash
${spawned}${readsStdin ? `input='${outputs}'/input.$$\ncat > "$input" || exit 70\n` : 'input=\n'}exec 3<>/dev/tcp/127.0.0.1/${port} || exit 70
names=($(compgen -e))
{ printf '%s\\0' '${command}' "$input" "$PWD" "$#" "$@" "\${#names[@]}"; for name in "\${names[@]}"; do printf '%s=%s\\0' "$name" "\${!name}"; done; } >&3
read -r code out err <&3 || exit 70
cat "$out"
cat "$err" >&2
exit "$code"
`,
        );
        chmodSync(script, 0o755);
      }
    },
  };
}

interface Call {
  command: string;
  /** The file that holds the script's stdin, or '' for none. */
  input: string;
  cwd: string;
  args: string[];
  env: Record<string, string>;
}

/** The call a script sent: the command's name, the file of its stdin, its working directory, argument count and arguments, then its variables' count and NAME=value entries, each ended by a NUL; undefined until all of it has come. */
function parse(bytes: Buffer): Call | undefined {
  const [command, ...fields] = bytes.toString('utf8').split('\0');
  fields.pop(); // what follows the last NUL: a field still coming, or nothing
  const argc = Number(fields[2]);
  if (fields.length < 4 + argc) return undefined;
  const envc = Number(fields[3 + argc]);
  if (fields.length < 4 + argc + envc) return undefined;
  const env: Record<string, string> = {};
  for (const entry of fields.slice(4 + argc, 4 + argc + envc)) {
    const equals = entry.indexOf('=');
    env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return { command: command!, input: fields[0]!, cwd: fields[1]!, args: fields.slice(3, 3 + argc), env };
}

/** Runs mkt with runInProcess. */
async function runMkt({ args, env, stdin }: InProcessCall): Promise<InProcessEnding> {
  const { code, stdoutBytes, stderr } = await runInProcess(args, { env, stdin });
  return { code, stdout: stdoutBytes, stderr };
}

/** Runs a call in the script's working directory, with its stdin. */
async function runFor(call: Call, command: (call: InProcessCall) => Promise<InProcessEnding>): Promise<InProcessEnding> {
  // Read now, and removed: a stream opened later, by a command that reads its stdin, or never,
  // could find its file gone.
  const stdin = Readable.from(call.input === '' ? [] : [readFileSync(call.input)]);
  if (call.input !== '') rmSync(call.input, { force: true });
  const previous = process.cwd();
  process.chdir(call.cwd);
  try {
    return await command({ args: call.args, env: call.env, stdin });
  } finally {
    process.chdir(previous);
  }
}
