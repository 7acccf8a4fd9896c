import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installed } from '../helpers/installed.js';
import { tempDir } from '../helpers/temp-dir.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const hasMan = installed('man');

describe('npm install -g, as the README gives it', () => {
  const prefix = tempDir('mkt-global-');
  const env = { ...process.env, PATH: `${join(prefix, 'bin')}:${process.env.PATH}` };

  it('puts mkt on the PATH, and its manual where `man mkt` finds it', () => {
    execFileSync('npm', ['install', '-g', '--ignore-scripts', '--prefix', prefix, REPO], { stdio: 'ignore' });
    expect(execFileSync('mkt', ['--version'], { env, encoding: 'utf8' })).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(realpathSync(join(prefix, 'share', 'man', 'man1', 'mkt.1'))).toBe(realpathSync(join(REPO, 'docs', 'mkt.1')));
  });

  it.runIf(hasMan)('lets man find the manual through the PATH alone', () => {
    expect(realpathSync(execFileSync('man', ['-w', 'mkt'], { env, encoding: 'utf8' }).trim())).toBe(realpathSync(join(REPO, 'docs', 'mkt.1')));
  });
});
