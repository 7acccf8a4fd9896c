import { describe, expect, it } from 'vitest';
import { terminalInput } from '../../helpers/terminal-input.js';
import { PassThrough } from 'node:stream';
import { InterruptedError, UsageError } from '../../../src/core/errors.js';
import { readApiKey } from '../../../src/config/key-input.js';
import type { InputStream } from '../../../src/core/deps.js';

function pipedStdin(text: string): InputStream {
  const stdin = new PassThrough();
  stdin.end(text);
  return stdin;
}

function captured(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { stream, text: () => text };
}

describe('readApiKey', () => {
  it('reads the whole of a piped stdin, without the trailing newline', async () => {
    const stderr = captured();
    await expect(readApiKey({ stdin: pipedStdin('key-0000-abcd\r\n'), stderr: stderr.stream }, 'default', new AbortController().signal))
      .resolves.toBe('key-0000-abcd');
    expect(stderr.text()).toBe('');
  });

  it('refuses an empty stdin as a usage error', async () => {
    const stderr = captured();
    const reading = readApiKey({ stdin: pipedStdin('\n'), stderr: stderr.stream }, 'default', new AbortController().signal);
    await expect(reading).rejects.toBeInstanceOf(UsageError);
    await expect(reading).rejects.toThrow('no API key on standard input');
  });

  it('refuses a stdin that holds more than one token, without quoting it', async () => {
    const stderr = captured();
    const reading = readApiKey({ stdin: pipedStdin('key one\nkey two\n'), stderr: stderr.stream }, 'default', new AbortController().signal);
    await expect(reading).rejects.toThrow('the API key from standard input contains spaces, control or non-ASCII characters');
  });

  it('prompts on a terminal without echoing the key', async () => {
    const stdin = terminalInput();
    const stderr = captured();
    const reading = readApiKey({ stdin, stderr: stderr.stream }, 'work', new AbortController().signal);
    stdin.write('key-9999-wxyz\r');
    await expect(reading).resolves.toBe('key-9999-wxyz');
    expect(stderr.text()).toBe('API key for profile "work": \n');
    expect(stdin.rawModes).toEqual([true, false]);
  });

  it('stops the prompt with an InterruptedError on Ctrl-C', async () => {
    const stdin = terminalInput();
    const stderr = captured();
    const reading = readApiKey({ stdin, stderr: stderr.stream }, 'default', new AbortController().signal);
    stdin.write('key-\u0003');
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
    expect(stdin.rawModes.at(-1)).toBe(false);
  });

  it('stops the prompt when the invocation is aborted', async () => {
    const stdin = terminalInput();
    const stderr = captured();
    const controller = new AbortController();
    const reading = readApiKey({ stdin, stderr: stderr.stream }, 'default', controller.signal);
    controller.abort(new InterruptedError('SIGTERM'));
    await expect(reading).rejects.toThrow('interrupted by SIGTERM');
  });
});
