import { Writable } from 'node:stream';
import { createInterface } from 'node:readline/promises';
import type { InputStream, OutputStream } from '../core/deps.js';
import { InterruptedError, MktError, UsageError } from '../core/errors.js';
import { checkApiKey } from './settings.js';

/**
 * The key for `mkt auth login`: from a hidden prompt on a terminal, else the whole of stdin.
 * Never from an argument, which `ps` and shell history would show.
 */
export async function readApiKey(
  io: { stdin: InputStream; stderr: OutputStream },
  profile: string,
  signal: AbortSignal,
): Promise<string> {
  const fromTerminal = io.stdin.isTTY === true;
  const key = (fromTerminal ? await promptHidden(io, `API key for profile "${profile}": `, signal) : await readKeyInput(io.stdin)).trim();
  if (key === '') {
    throw new UsageError(fromTerminal ? 'no API key entered' : 'no API key on standard input', {
      hint: 'Pipe the key in, e.g. `mkt auth login < key.txt`, or run `mkt auth login` at a terminal to be asked for it.',
    });
  }
  return checkApiKey(key, fromTerminal ? 'the prompt' : 'standard input');
}

/** Room for a 4 KiB key and any whitespace around it; stdin is read no further. */
const KEY_INPUT_LIMIT = 64 * 1024;

/** Standard input, whole, unless it holds more than a key could: `mkt auth login < /dev/zero` ends at once. */
async function readKeyInput(stream: InputStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > KEY_INPUT_LIMIT) {
      throw new UsageError('standard input holds more than 64 KiB, more than the 4 KiB a key may be', {
        hint: 'Pass the key exactly as the operator issued it, not a file that holds more.',
      });
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Ctrl-D at the prompt: a cancel (exit 130, nothing stored), though no signal was sent. */
class PromptClosedError extends InterruptedError {
  constructor() {
    super();
    this.message = 'cancelled at the key prompt: nothing stored';
  }
}

/** readline does the line editing; its echo goes to a stream that drops everything. */
async function promptHidden(io: { stdin: InputStream; stderr: OutputStream }, prompt: string, signal: AbortSignal): Promise<string> {
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: io.stdin, output: muted, terminal: true });
  io.stderr.write(prompt);
  // In raw mode Ctrl-C reaches readline, not the process.
  const interrupted = new AbortController();
  rl.once('SIGINT', () => interrupted.abort(new InterruptedError('SIGINT')));
  // Ctrl-D (end of input) closes readline before an answer: the user backs out, as with Ctrl-C.
  rl.once('close', () => interrupted.abort(new PromptClosedError()));
  try {
    return await rl.question('', { signal: AbortSignal.any([signal, interrupted.signal]) });
  } catch (error) {
    const reason = interrupted.signal.reason ?? signal.reason;
    throw reason instanceof MktError ? reason : error;
  } finally {
    io.stderr.write('\n');
    rl.close();
  }
}
