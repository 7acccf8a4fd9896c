import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InProcessRun, runInProcess, type InProcessOptions } from '../helpers/run-in-process.js';
import { type MktRun, runMkt, tempConfigDir } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';

/*
 * Most tests run `mkt` in this process (test/helpers/run-in-process.ts). These spawn
 * `node bin/mkt.js` once per case, to show that the process does what run() does: its exit code
 * is run()'s, stdout and stderr carry the same bytes however long, and the process's
 * environment and a piped stdin reach the command. Signals and terminals have their own tests
 * (interrupt-and-timeout, terminal, help).
 */

// Enough records for a CSV of several times a pipe's buffer, over three pages.
const sandbox = useSandbox({ records: 300 });
const serviceEnv = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });

const outcome = ({ code, stdout, stderr }: MktRun | InProcessRun) => ({ code, stdout, stderr });

/** Runs `args` both ways, each with a fresh config directory, and returns the spawned run. */
async function sameBothWays(args: string[], options: () => InProcessOptions = () => ({})): Promise<MktRun> {
  const spawned = await runMkt(args, options());
  expect(outcome(spawned)).toEqual(outcome(await runInProcess(args, options())));
  expect(spawned.signal).toBeNull();
  return spawned;
}

describe('node bin/mkt.js prints and exits as run() does in-process', () => {
  it('mkt --version', async () => {
    expect((await sameBothWays(['--version'])).code).toBe(0);
  });

  // One help: the program's and a command's reach bin/mkt.js the same way, through run(); help.test
  // compares every form of help in-process, and pipes both into a closing reader through bin/mkt.js.
  it.each([[['results', '--help']]])('mkt %j', async (args) => {
    const run = await sameBothWays(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: mkt /);
  });

  it('mkt fees NOPE exits 4', async () => {
    expect((await sameBothWays(['fees', 'NOPE'], () => ({ env: serviceEnv() }))).code).toBe(4);
  });

  it('mkt results --all -f csv: every record of the sandbox, all of it written before the process exits', async () => {
    const run = await sameBothWays(['results', '--all', '-f', 'csv'], () => ({ env: serviceEnv() }));
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(100_000);
  });
});

describe('stdin as a real pipe', () => {
  it('mkt auth login reads the key from it', async () => {
    const dirs: string[] = [];
    const options = (): InProcessOptions => {
      dirs.push(tempConfigDir());
      return { env: { MKT_CONFIG_DIR: dirs.at(-1) }, input: 'pipe-key-0001-wxyz\n' };
    };
    const run = await sameBothWays(['auth', 'login', '--no-verify'], options);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    for (const dir of dirs) {
      expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8'))).toEqual({ profiles: { default: { api_key: 'pipe-key-0001-wxyz' } } });
    }
  });
});
