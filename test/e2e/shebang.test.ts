import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cleanEnv, MKT_BIN } from '../helpers/run-mkt.js';

/*
 * The kernel hands everything after the interpreter's path to it as one argument: an option
 * after `node` needs an `env` that splits it (`-S`), which BusyBox's, as on Alpine, does not.
 */
describe('bin/mkt.js', () => {
  it('starts with `#!/usr/bin/env node`, nothing else on that line', () => {
    expect(readFileSync(MKT_BIN, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('runs through that line when executed itself', () => {
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;
    expect(execFileSync(MKT_BIN, ['--version'], { env: cleanEnv({}), encoding: 'utf8' })).toBe(`${version}\n`);
  });
});
