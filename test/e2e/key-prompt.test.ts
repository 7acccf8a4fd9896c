import { describe, expect, it } from 'vitest';
import { terminalInput } from '../helpers/terminal-input.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../src/main.js';
import { memoryDeps } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';

describe('the hidden key prompt', () => {
  // Without the 'close' handling the prompt waits for ever at end of input: the timeout makes that a failure.
  it('cancels at Ctrl-D (end of input) as at Ctrl-C: exit 130, nothing stored', { timeout: 10_000 }, async () => {
    const dir = tempConfigDir();
    const stdin = terminalInput();
    const deps = { ...memoryDeps({ env: { MKT_CONFIG_DIR: dir } }), stdin };
    const running = run(['auth', 'login', '--no-verify'], deps);
    // The prompt is up when readline has put the terminal in raw mode; then the user presses Ctrl-D.
    await expect.poll(() => stdin.rawModes.length).toBeGreaterThan(0);
    stdin.end();
    const code = await running;
    expect({ code, stdout: deps.stdout.text(), stderr: deps.stderr.text() }).toEqual({
      code: 130,
      stdout: '',
      stderr: 'API key for profile "default": \nmkt: cancelled at the key prompt: nothing stored\n',
    });
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false);
    // The terminal is left as it was found.
    expect(stdin.rawModes.at(-1)).toBe(false);
  });
});
