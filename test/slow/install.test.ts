import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installed } from '../helpers/installed.js';
import { cleanEnv, MKT_RUNS } from '../helpers/run-mkt.js';
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

  it('puts tap-mkt on the PATH, which Meltano runs as `mkt tap` with the Singer flags after it', () => {
    const catalog = JSON.parse(execFileSync('tap-mkt', ['--sandbox', '--discover'], { env: { ...cleanEnv({}), PATH: env.PATH }, encoding: 'utf8' }));
    expect(catalog.streams.map((stream: { stream: string }) => stream.stream)).toEqual(['fee_schedule_results']);
  });

  it.runIf(hasMan)('lets man find the manual through the PATH alone', () => {
    expect(realpathSync(execFileSync('man', ['-w', 'mkt'], { env, encoding: 'utf8' }).trim())).toBe(realpathSync(join(REPO, 'docs', 'mkt.1')));
  });
});

describe('the files npm ships (package.json "files")', () => {
  it('hold all that mkt runs: a data command, a sync, SQL over the mirror, completion', () => {
    const dir = tempDir('mkt-pack-');
    // As built: the test run has built dist/ already, so the pack does not build again.
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, REPO], { encoding: 'utf8' })) as { filename: string }[];
    execFileSync('tar', ['-xzf', join(dir, packed!.filename), '-C', dir]);
    const unpacked = join(dir, 'package');
    // The dependencies npm would install beside it.
    symlinkSync(join(REPO, 'node_modules'), join(unpacked, 'node_modules'));
    const env = cleanEnv({});
    const mkt = (...args: string[]) => execFileSync(process.execPath, [join(unpacked, 'bin', 'mkt.js'), ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(mkt('--sandbox', 'fees', 'NYSE', '-f', 'json'))).toMatchObject({ exchange: 'NYSE' });
    // The sync, the SQL and completion run in one process of the unpacked bundle, one after
    // another, as bin/mkt.js runs it: mkt-runs.cjs, put where its ../../dist/bundle/mkt.cjs is the
    // package's, so that what they load is still the files npm ships.
    const runs = join(unpacked, 'test', 'helpers', 'mkt-runs.cjs');
    mkdirSync(dirname(runs), { recursive: true });
    copyFileSync(MKT_RUNS, runs);
    const mirror = join(dir, 'mirror.duckdb');
    const lists = [
      ['--sandbox', 'sync', '--exchange-name', 'NYSE', '--mirror', mirror, '-q'],
      ['--sandbox', 'sql', '--mirror', mirror, 'SELECT DISTINCT exchange_name FROM results', '-f', 'csv'],
      ['completion', 'bash'],
    ];
    const ran = spawnSync(process.execPath, [runs, JSON.stringify(lists)], { env, encoding: 'utf8' });
    expect(JSON.parse(ran.stderr)).toEqual(lists.map(() => ({ code: 0, stderr: '' })));
    // The sync writes nothing with -q; the SQL's CSV, then the script.
    expect(ran.stdout).toMatch(/^exchange_name\r\nNYSE\r\n# bash completion for mkt/);
  });
});
