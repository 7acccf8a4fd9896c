import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ChildProcessByStdio, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { stop as stopEsbuild, transform } from 'esbuild';
import { MktError } from '../../../src/core/errors.js';
import { type ConfigFiles, configFiles } from '../../../src/config/paths.js';
import {
  readProfileSettings, readStoredApiKey, removeApiKey, setSetting, storedProfileNames, storeApiKey, unsetSetting,
} from '../../../src/config/store.js';
import { runInProcess } from '../../helpers/run-in-process.js';
import { virtualClock } from '../../helpers/virtual-clock.js';

const posix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;
const roots: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'mkt-store-'));
  roots.push(root);
  return root;
}
/** A config directory that does not exist yet, under one that does not either. */
const newFiles = (): ConfigFiles => configFiles(join(tempRoot(), 'nested', 'mkt'));

/**
 * Files whose writers wait for a lock on a clock that stands still but for their own sleeps: what
 * a test reads off it is how long the writer chose to wait, however busy the machine is.
 */
function filesOnStoppedClock(config: ConfigFiles = newFiles()): { files: ConfigFiles; clock: { now: () => number; started: number } } {
  const clock = virtualClock({ pace: 0 });
  const files = { ...config, lockClock: { now: clock.now, sleep: (ms: number) => clock.sleep(ms, new AbortController().signal) } };
  return { files, clock: { now: clock.now, started: clock.now() } };
}
const mode = (file: string) => statSync(file).mode & 0o777;
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A pid that belonged to a process and no longer does: any program's, and `true` starts quickest. */
function deadPid(): number {
  const child = spawnSync('true');
  return child.pid as number;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('the profile store', () => {
  it('writes settings and keys per profile, in the files it reads', async () => {
    const files = newFiles();
    await setSetting(files, 'default', 'base_url', 'https://a.example.test');
    await setSetting(files, 'work', 'timeout', 12.5);
    await storeApiKey(files, 'work', 'key-work-0001');

    expect(readJson(files.settings)).toEqual({
      profiles: { default: { base_url: 'https://a.example.test' }, work: { timeout: 12.5 } },
    });
    expect(readJson(files.credentials)).toEqual({ profiles: { work: { api_key: 'key-work-0001' } } });
    expect(readProfileSettings(files, 'work')).toEqual({ timeout: 12.5 });
    expect(readStoredApiKey(files, 'work')).toBe('key-work-0001');
    expect(readStoredApiKey(files, 'default')).toBeUndefined();
    // No lock or temporary file is left behind.
    expect(readdirSync(files.dir).sort()).toEqual(['config.json', 'credentials.json']);
  });

  it('unsets and removes idempotently, dropping a profile left empty', async () => {
    const files = newFiles();
    await setSetting(files, 'default', 'format', 'csv');
    await setSetting(files, 'default', 'retries', 2);
    await storeApiKey(files, 'default', 'key-0000-abcd');

    expect(await unsetSetting(files, 'default', 'format')).toBe(true);
    expect(await unsetSetting(files, 'default', 'format')).toBe(false);
    expect(readJson(files.settings)).toEqual({ profiles: { default: { retries: 2 } } });
    expect(await unsetSetting(files, 'default', 'retries')).toBe(true);
    expect(readJson(files.settings)).toEqual({ profiles: {} });

    expect(await removeApiKey(files, 'default')).toBe(true);
    expect(await removeApiKey(files, 'default')).toBe(false);
    expect(await removeApiKey(files, 'never-seen')).toBe(false);
    expect(readJson(files.credentials)).toEqual({ profiles: {} });
  });

  it('creates nothing when there is nothing to remove', async () => {
    const files = newFiles();
    expect(await removeApiKey(files, 'default')).toBe(false);
    expect(await unsetSetting(files, 'default', 'timeout')).toBe(false);
    expect(existsSync(files.dir)).toBe(false);
  });

  it('keeps entries it does not know about', async () => {
    const files = newFiles();
    await setSetting(files, 'default', 'format', 'json');
    writeFileSync(files.settings, JSON.stringify({ profiles: { default: { format: 'json', later: 1 } }, other: true }));
    await setSetting(files, 'default', 'retries', 1);
    expect(readJson(files.settings)).toEqual({ profiles: { default: { format: 'json', later: 1, retries: 1 } }, other: true });
  });

  it('refuses to overwrite a corrupt file, naming it and not quoting it', async () => {
    const files = newFiles();
    await storeApiKey(files, 'default', 'key-0000-abcd');
    writeFileSync(files.credentials, '{"profiles": {"default": {"api_key": "key-0000-abcd"');
    const caught = await storeApiKey(files, 'default', 'key-2222-abcd').catch((error: unknown) => error);
    expect(caught).toBeInstanceOf(MktError);
    expect((caught as MktError).message).toBe(`${files.credentials} is not valid JSON: expected ',' or '}' after property value at line 1, column 53`);
    expect(String((caught as MktError).hint)).not.toContain('key-');
    expect(readFileSync(files.credentials, 'utf8')).toBe('{"profiles": {"default": {"api_key": "key-0000-abcd"');
    expect(existsSync(`${files.credentials}.lock`)).toBe(false);
  });

  it('reads a missing directory as empty, and reports a file of the wrong shape', () => {
    const files = newFiles();
    expect(readProfileSettings(files, 'default')).toEqual({});
    expect(readStoredApiKey(files, 'default')).toBeUndefined();
    expect(existsSync(files.dir)).toBe(false);

    mkdirSync(files.dir, { recursive: true });
    writeFileSync(files.settings, JSON.stringify({ profiles: { default: 3 } }));
    expect((thrown(() => readProfileSettings(files, 'default')) as MktError).message)
      .toBe(`${files.settings} does not hold {"profiles": {"<name>": {…}}}`);
  });

  it('lists the profiles of both files for completion, a broken file offering none', () => {
    const files = newFiles();
    mkdirSync(files.dir, { recursive: true });
    writeFileSync(files.settings, JSON.stringify({ profiles: { prod: {}, dev: { timeout: 3 } } }));
    writeFileSync(files.credentials, JSON.stringify({ profiles: { ci: { api_key: 'k'.repeat(20) }, dev: {} } }));
    expect(storedProfileNames(files)).toEqual(['ci', 'dev', 'prod']);
    writeFileSync(files.settings, '{not json');
    expect(storedProfileNames(files)).toEqual(['ci', 'dev']);
    expect(storedProfileNames(newFiles())).toEqual([]);
  });
});

describe.runIf(posix)('file modes', () => {
  it('creates the directory 0700, config.json 0644 and credentials.json 0600', async () => {
    const files = newFiles();
    await setSetting(files, 'default', 'timeout', 3);
    expect(mode(files.dir)).toBe(0o700);
    expect(mode(files.settings)).toBe(0o644);
    await storeApiKey(files, 'default', 'key-0000-abcd');
    expect(mode(files.credentials)).toBe(0o600);
  });

  it('gives files that existed with other modes theirs, and makes a directory holding keys 0700', async () => {
    const files = configFiles(join(tempRoot(), 'mkt'));
    mkdirSync(files.dir, { mode: 0o755 });
    chmodSync(files.dir, 0o755);
    writeFileSync(files.credentials, JSON.stringify({ profiles: { old: { api_key: 'key-old-0000' } } }), { mode: 0o644 });
    writeFileSync(files.settings, JSON.stringify({ profiles: {} }), { mode: 0o600 });
    chmodSync(files.credentials, 0o644);
    chmodSync(files.settings, 0o600);

    await storeApiKey(files, 'default', 'key-1111-abcd');
    expect(mode(files.credentials)).toBe(0o600);
    expect(mode(files.dir)).toBe(0o700);
    await setSetting(files, 'default', 'format', 'csv');
    expect(mode(files.settings)).toBe(0o644);
    expect(readJson(files.credentials)).toEqual({ profiles: { old: { api_key: 'key-old-0000' }, default: { api_key: 'key-1111-abcd' } } });
  });

  it('ignores the umask: 0644 and 0600 under umask 077 and 000', async () => {
    for (const umask of [0o077, 0o000]) {
      const files = newFiles();
      const previous = process.umask(umask);
      try {
        await setSetting(files, 'default', 'timeout', 3);
        await storeApiKey(files, 'default', 'key-0000-abcd');
      } finally {
        process.umask(previous);
      }
      expect([mode(files.dir), mode(files.settings), mode(files.credentials)]).toEqual([0o700, 0o644, 0o600]);
    }
  });

  it('leaves a shared directory with the sticky bit open', async () => {
    const dir = join(tempRoot(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    const files = configFiles(dir);
    await storeApiKey(files, 'default', 'key-0000-abcd');
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    expect(mode(files.credentials)).toBe(0o600);
  });
});

describe('the lock', () => {
  it('lets many async writes of one process wait for each other, losing no profile', async () => {
    const files = newFiles();
    const writes = Array.from({ length: 40 }, (_, i) => (i % 2 === 0
      ? setSetting(files, `p${i}`, 'retries', i)
      : storeApiKey(files, `p${i}`, `key-${i}-abcdefgh`)));
    await Promise.all(writes);
    const settings = readJson(files.settings) as { profiles: Record<string, unknown> };
    const credentials = readJson(files.credentials) as { profiles: Record<string, unknown> };
    expect(Object.keys(settings.profiles)).toHaveLength(20);
    expect(Object.keys(credentials.profiles)).toHaveLength(20);
    for (let i = 0; i < 40; i += 2) expect(readProfileSettings(files, `p${i}`)).toEqual({ retries: i });
    expect(readdirSync(files.dir).sort()).toEqual(['config.json', 'credentials.json']);
  });

  it('takes over a lock whose writer is dead, without waiting', async () => {
    const { files, clock } = filesOnStoppedClock();
    mkdirSync(files.dir, { recursive: true });
    writeFileSync(`${files.settings}.lock`, String(deadPid()));
    await setSetting(files, 'default', 'timeout', 3);
    expect(clock.now() - clock.started).toBe(0);
    expect(readJson(files.settings)).toEqual({ profiles: { default: { timeout: 3 } } });
    expect(existsSync(`${files.settings}.lock`)).toBe(false);
  });

  it('takes over a lock left empty long ago, and waits for one being written now', async () => {
    const files = newFiles();
    mkdirSync(files.dir, { recursive: true });
    const lock = `${files.credentials}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await storeApiKey(files, 'default', 'key-0000-abcd');
    expect(existsSync(lock)).toBe(false);

    writeFileSync(lock, '');
    const write = storeApiKey(files, 'default', 'key-1111-abcd');
    await new Promise((resolveWait) => setTimeout(resolveWait, 300));
    expect(readStoredApiKey(files, 'default')).toBe('key-0000-abcd'); // still waiting
    rmSync(lock);
    await write;
    expect(readStoredApiKey(files, 'default')).toBe('key-1111-abcd');
  });

  it('gives up on a lock a live process holds, after a few seconds, naming the file', async () => {
    const { files, clock } = filesOnStoppedClock();
    mkdirSync(files.dir, { recursive: true });
    writeFileSync(files.settings, JSON.stringify({ profiles: { default: { timeout: 1 } } }));
    const holder = spawn('sleep', ['60']);
    try {
      writeFileSync(`${files.settings}.lock`, String(holder.pid));
      const caught = await setSetting(files, 'default', 'timeout', 3).catch((error: unknown) => error);
      const waited = clock.now() - clock.started;
      expect(caught).toBeInstanceOf(MktError);
      expect((caught as MktError).message).toBe(
        `cannot lock ${files.settings}: ${files.settings}.lock has been held by process ${holder.pid} for over 5 s`,
      );
      // The deadline, and not much past it: the last pause is at most 0.15 s.
      expect(waited).toBeGreaterThanOrEqual(5_000);
      expect(waited).toBeLessThan(5_500);
      expect(readJson(files.settings)).toEqual({ profiles: { default: { timeout: 1 } } });
      expect(existsSync(`${files.settings}.lock`)).toBe(true); // not ours to remove
    } finally {
      holder.kill();
    }
  }, 20_000);
});

/*
 * Writers in other processes. The children run the store as JavaScript transpiled from src/ into
 * a temporary directory (Node 20 cannot import TypeScript), so they test this tree, not dist/.
 */
describe('writers in several processes at once', () => {
  let compiled: Promise<string> | undefined;
  afterAll(async () => {
    if (compiled) rmSync(dirname(dirname(await compiled)), { recursive: true, force: true });
    // esbuild answers from a service process of its own, which this file started.
    await stopEsbuild();
  });

  /** Transpiles src/config/store.ts and what it imports; resolves to the path of store.js. */
  function compiledStore(): Promise<string> {
    compiled ??= (async () => {
      const into = mkdtempSync(join(tmpdir(), 'mkt-store-js-'));
      const src = fileURLToPath(new URL('../../../src', import.meta.url));
      const pending = [join(src, 'config', 'store.ts')];
      const done = new Set<string>();
      while (pending.length > 0) {
        const file = pending.pop() as string;
        if (done.has(file)) continue;
        done.add(file);
        const text = readFileSync(file, 'utf8');
        // Static imports only: what is loaded on demand (formats' exporters) is never called here.
        for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from '(\.{1,2}\/[^']+)\.js';/gm)) {
          if (!/^import type /.test(match[0])) pending.push(resolve(dirname(file), `${match[1]}.ts`));
        }
        const out = join(into, relative(src, file)).replace(/\.ts$/, '.js');
        mkdirSync(dirname(out), { recursive: true });
        // esbuild, not the TypeScript compiler, which would be loaded into this worker for this alone.
        const js = await transform(text, { loader: 'ts', format: 'esm', target: 'es2022' });
        writeFileSync(out, js.code);
      }
      writeFileSync(join(into, 'package.json'), '{"type": "module"}');
      return join(into, 'config', 'store.js');
    })();
    return compiled;
  }

  /** A writer process of race's, and the next line it answers ('ended' once its output has). */
  interface Writer {
    child: ChildProcessByStdio<Writable, Readable, null>;
    next(): Promise<string>;
  }

  let started: Promise<Writer[]> | undefined;

  /**
   * Six processes that have loaded the store, started once for both races, each waiting for a
   * race's word on stdin, not on a clock it would spin on: all are told at once, and each
   * answers 'done', or the error it met, when its writes are over.
   */
  function writers(): Promise<Writer[]> {
    started ??= (async () => {
      const store = await compiledStore();
      const script = `
        const { setSetting, storeApiKey } = await import(${JSON.stringify(store)});
        const { createInterface } = await import('node:readline');
        const child = Number(process.argv[1]);
        process.stdout.write('ready\\n');
        for await (const line of createInterface({ input: process.stdin })) {
          const { files, writes } = JSON.parse(line);
          try {
            for (let i = 0; i < writes; i++) {
              await setSetting(files, \`c\${child}-\${i}\`, 'retries', i);
              await storeApiKey(files, \`c\${child}-\${i}\`, \`key-\${child}-\${i}-abcdefgh\`);
            }
            process.stdout.write('done\\n');
          } catch (error) {
            process.stdout.write(\`failed: \${String(error)}\\n\`);
          }
        }`;
      return Promise.all(Array.from({ length: 6 }, async (_, index) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, String(index)], { stdio: ['pipe', 'pipe', 'inherit'] });
        const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
        const next = async () => {
          const line = await lines.next();
          return line.done ? 'ended' : (line.value as string);
        };
        // A writer that fails before it is ready ends the wait, and fails the test.
        expect(await next()).toBe('ready');
        return { child, next };
      }));
    })();
    return started;
  }
  afterAll(async () => {
    for (const { child } of started ? await started : []) {
      const exited = new Promise((done) => child.on('exit', done));
      child.stdin.end();
      await exited;
    }
  });

  /** Tells the six writers to write `writes` profiles each, of their own, into both files at once. */
  async function race(files: ConfigFiles, writes: number): Promise<string[]> {
    const all = await writers();
    for (const { child } of all) child.stdin.write(`${JSON.stringify({ files, writes })}\n`);
    return Promise.all(all.map(({ next }) => next()));
  }

  it('never lose a profile: 6 processes, 15 profiles each, in both files', async () => {
    const files = newFiles();
    expect(await race(files, 15)).toEqual(Array(6).fill('done'));
    const settings = readJson(files.settings) as { profiles: Record<string, { retries: number }> };
    const credentials = readJson(files.credentials) as { profiles: Record<string, { api_key: string }> };
    expect(Object.keys(settings.profiles)).toHaveLength(90);
    expect(Object.keys(credentials.profiles)).toHaveLength(90);
    for (let child = 0; child < 6; child++) {
      for (let i = 0; i < 15; i++) {
        expect(settings.profiles[`c${child}-${i}`]).toEqual({ retries: i });
        expect(credentials.profiles[`c${child}-${i}`]).toEqual({ api_key: `key-${child}-${i}-abcdefgh` });
      }
    }
    expect(readdirSync(files.dir).sort()).toEqual(['config.json', 'credentials.json']);
    if (posix) expect([mode(files.dir), mode(files.settings), mode(files.credentials)]).toEqual([0o700, 0o644, 0o600]);
  }, 30_000);

  it('never lose a profile when they start on a stale lock together', async () => {
    const files = newFiles();
    mkdirSync(files.dir, { recursive: true });
    writeFileSync(`${files.settings}.lock`, String(deadPid()));
    writeFileSync(`${files.credentials}.lock`, String(deadPid()));
    expect(await race(files, 3)).toEqual(Array(6).fill('done'));
    expect(Object.keys((readJson(files.settings) as { profiles: object }).profiles)).toHaveLength(18);
    expect(Object.keys((readJson(files.credentials) as { profiles: object }).profiles)).toHaveLength(18);
    expect(readdirSync(files.dir).sort()).toEqual(['config.json', 'credentials.json']);
  }, 30_000);
});

describe('a config directory that cannot be used', () => {
  const message = (dir: string, code: string) =>
    `cannot write to the config directory ${dir} (${code}); set MKT_CONFIG_DIR to a directory you can write to`;

  /** What `write` throws, and how long it waited for a lock, on a clock that stands still but for its own sleeps. */
  async function failure(
    config: ConfigFiles,
    write: (files: ConfigFiles) => Promise<unknown> = (into) => storeApiKey(into, 'default', 'key-0000-abcd'),
  ): Promise<{ error: MktError; waited: number }> {
    const { files, clock } = filesOnStoppedClock(config);
    const error = await write(files).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MktError);
    return { error: error as MktError, waited: clock.now() - clock.started };
  }

  it('fails at once when a regular file is in the way', async () => {
    const file = join(tempRoot(), 'plain-file');
    writeFileSync(file, 'not a directory');
    const itself = await failure(configFiles(file));
    expect(itself.error.message).toBe(message(file, 'ENOTDIR'));
    const below = await failure(configFiles(join(file, 'mkt')));
    expect(below.error.message).toBe(message(join(file, 'mkt'), 'ENOTDIR'));
    expect([itself.waited, below.waited]).toEqual([0, 0]);
    expect(readFileSync(file, 'utf8')).toBe('not a directory');
  });

  // mkdir -p spins there for ever: the test's timeout would end it.
  it.runIf(process.platform === 'linux')('fails at once under /proc, where mkdir -p would spin', async () => {
    const { error, waited } = await failure(configFiles('/proc/self/mkt'));
    expect(error.message).toBe(message('/proc/self/mkt', 'ENOENT'));
    expect(waited).toBe(0);
  });

  it.runIf(posix && !isRoot)(`fails at once when the directory is not writable${isRoot ? ' (skipped as root, whom no mode keeps from writing)' : ''}`, async () => {
    const dir = join(tempRoot(), 'read-only');
    mkdirSync(dir);
    chmodSync(dir, 0o500);
    try {
      // A setting: a key would make its owner's directory private (0700), and so writable.
      const { error, waited } = await failure(configFiles(dir), (files) => setSetting(files, 'default', 'timeout', 3));
      expect(error.message).toBe(message(dir, 'EACCES'));
      expect(waited).toBe(0);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it.runIf(process.platform === 'linux')('is one line on stderr and exit 1, from the command', async () => {
    const run = await runInProcess(['config', 'set', 'timeout', '3'], { env: { MKT_CONFIG_DIR: undefined, XDG_CONFIG_HOME: '/proc/self' } });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${message('/proc/self/mkt', 'ENOENT')}\n` });
  });
});
