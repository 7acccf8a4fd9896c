import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, createReadStream, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { MKT_RUNS } from '../helpers/run-mkt.js';
import { once as setUpOnce } from '../helpers/once.js';
import { mktRunnableBy, type OnFilesOptions, runMktOnFiles } from '../helpers/run-on-files.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 14, points 1-4: what -o writes to, and how it fails.
const sandbox = useSandbox({ records: 50 });
const env = () => ({ env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key } });
const startServer = useRecordingServers();

/** mkt spawned against the sandbox, with a config directory any user may read. */
function onFiles(args: string[], options: OnFilesOptions = {}) {
  const configDir = tempDir('mkt-config-');
  chmodSync(configDir, 0o777);
  return runMktOnFiles(args, { ...options, env: { ...env().env, MKT_CONFIG_DIR: configDir } });
}

describe('-o to what is not a regular file', () => {
  it('writes straight into /dev/null, which stays a character device', async () => {
    const run = await runInProcess(['results', '--limit', '5', '-f', 'csv', '-o', '/dev/null'], env());
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync('/dev').filter((name) => name.startsWith('.null.tmp-'))).toEqual([]);
  });

  it('writes straight into a named pipe, for its reader', async () => {
    const fifo = join(tempDir('mkt-fifo-'), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const chunks: Buffer[] = [];
    const reading = new Promise<string>((resolve, reject) => {
      createReadStream(fifo).on('data', (chunk) => chunks.push(chunk as Buffer)).on('end', () => resolve(Buffer.concat(chunks).toString())).on('error', reject);
    });
    const run = await runInProcess(['results', '--limit', '3', '-f', 'ndjson', '--columns', 'id', '-o', fifo], env());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect((await reading).trimEnd().split('\n')).toHaveLength(3);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('replaces the file a symbolic link points to, and the link stays', async () => {
    const dir = tempDir('mkt-link-');
    writeFileSync(join(dir, 'real.csv'), 'old\n');
    symlinkSync('real.csv', join(dir, 'link.csv'));
    const run = await runInProcess(['results', '--limit', '2', '-o', join(dir, 'link.csv')], env());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toMatch(/^id,exchange_name,/);
    expect(readdirSync(dir).sort()).toEqual(['link.csv', 'real.csv']);
  });
});

// Issue 35, point 4: a path that names a descriptor is written through it, and a link is followed.
describe('-o naming one of mkt\'s descriptors', () => {
  const args = ['results', '--limit', '3', '-f', 'csv', '--columns', 'id,exchange_name'];

  /** A log with a line in it, for a descriptor opened with >>, and its inode. */
  function appendLog(): { log: string; inode: number } {
    const log = join(tempDir('mkt-append-'), 'app.log');
    writeFileSync(log, 'an earlier line\n');
    return { log, inode: statSync(log).ino };
  }

  // The rows but /dev/stderr run in one Node process (mkt-runs.cjs), each through a descriptor of
  // its own, opened with >> as in a process of its own: what a run writes goes where its -o leads.
  // /dev/stderr is a process of its own, as mkt-runs keeps each run's standard error to itself.
  const THROUGH_ONE_PROCESS: Readonly<Record<string, number>> = { '/dev/stdout': 1, '/proc/self/fd/3': 3, '/dev/fd/4': 4 };
  const expectedCsv = setUpOnce(async () => (await runInProcess([...args, '-o', '-'], env())).stdout);
  const runsThroughOneProcess = setUpOnce(async () => {
    const paths = Object.keys(THROUGH_ONE_PROCESS);
    const logs = paths.map(appendLog);
    const append = Object.fromEntries(paths.map((path, index) => [THROUGH_ONE_PROCESS[path], logs[index]!.log]));
    const run = await onFiles([JSON.stringify(paths.map((path) => [...args, '-o', path]))], { bin: MKT_RUNS, append });
    expect(run.code).toBe(0);
    const outcomes = JSON.parse(run.stderr) as { code: number; stderr: string }[];
    return new Map(paths.map((path, index) => [path, { run: outcomes[index], ...logs[index]! }]));
  });

  it.each([
    ['/dev/stdout', 1],
    ['/dev/stderr', 2],
    ['/proc/self/fd/3', 3],
    ['/dev/fd/4', 4],
  ])('-o %s appends through descriptor %i, opened with >>, and the file behind it keeps its content', async (path, descriptor) => {
    const expected = await expectedCsv();
    const ran = THROUGH_ONE_PROCESS[path] === descriptor ? (await runsThroughOneProcess()).get(path)! : await (async () => {
      const log = appendLog();
      return { run: await onFiles([...args, '-o', path], { append: { [descriptor]: log.log } }), ...log };
    })();
    expect(ran.run).toEqual({ code: 0, stderr: '' });
    expect(readFileSync(ran.log, 'utf8')).toBe(`an earlier line\n${expected}`);
    expect(statSync(ran.log).ino).toBe(ran.inode);
  });

  it('-o /dev/stdout, or a link to it, writes to mkt\'s standard output, as -o - does', async () => {
    const expected = await runInProcess([...args, '-o', '-'], env());
    const link = join(tempDir('mkt-link-'), 'out.csv');
    symlinkSync('/dev/stdout', link);
    for (const path of ['/dev/stdout', link]) {
      const run = await runInProcess([...args, '-o', path], env());
      expect(run).toMatchObject({ code: 0, stdout: expected.stdout, stderr: '' });
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("writes into another process's pipe through /proc/<pid>/fd/1, as the kernel opens it", async () => {
    // A process whose stdout is a pipe (Node gives its children sockets): it prints its pid, and cat passes on what comes after.
    const shell = spawn('bash', ['-c', '{ echo $BASHPID; exec sleep 60; } | cat'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    try {
      let received = '';
      shell.stdout.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      await vi.waitFor(() => expect(received).toMatch(/^\d+\n/));
      const pid = received.trimEnd();
      const expected = (await runInProcess([...args, '-o', '-'], env())).stdout;
      const run = await runInProcess([...args, '-o', `/proc/${pid}/fd/1`], env());
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
      await vi.waitFor(() => expect(received).toBe(`${pid}\n${expected}`));
    } finally {
      process.kill(-(shell.pid as number));
    }
  });

  it('names a descriptor that is not open, exit 1, before anything is sent', async () => {
    const server = await startServer((_request, response) => sendJson(response, 418, { detail: 'no request was expected' }));
    const run = await runInProcess(['results', '-o', '/proc/self/fd/987'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' } });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: 'mkt: cannot write /proc/self/fd/987: bad file descriptor (EBADF)\n' });
    expect(server.requests).toHaveLength(0);
  });

  it('refuses the descriptors Node opened for itself, which it would crash writing into', async () => {
    // Which numbers Node takes for its event loop varies: every low one is tried.
    // One Node process tries them all in turn: its own descriptors are the same at each run.
    const descriptors = Array.from({ length: 14 }, (_, index) => index + 3);
    const tried = await onFiles([JSON.stringify(descriptors.map((descriptor) => [...args, '-o', `/proc/self/fd/${descriptor}`]))], { bin: MKT_RUNS });
    expect(tried.code).toBe(0);
    const outcomes = new Set<string>();
    for (const [index, { code, stderr }] of (JSON.parse(tried.stderr) as { code: number; stderr: string }[]).entries()) {
      const path = `/proc/self/fd/${descriptors[index]}`;
      outcomes.add(JSON.stringify({ code, stderr: stderr.replace(path, 'PATH').replace(`descriptor ${descriptors[index]} `, 'descriptor N ') }));
    }
    const refused = { code: 2, stderr: 'mkt: cannot write PATH: descriptor N is not one mkt was given, but one of its own\nOpen it for mkt (`3>>file`), or give a file name to -o.\n' };
    // A reading end, or a number not open.
    const notWritable = { code: 1, stderr: 'mkt: cannot write PATH: bad file descriptor (EBADF)\n' };
    const expected = [JSON.stringify(refused), JSON.stringify(notWritable)];
    expect([...outcomes]).toContain(expected[0]);
    expect([...outcomes].filter((outcome) => !expected.includes(outcome)).map((outcome) => JSON.parse(outcome))).toEqual([]);
  });
});

describe('-o through a symbolic link whose target does not exist yet', () => {
  it('creates the target, and the link stays', async () => {
    const dir = tempDir('mkt-dangling-');
    symlinkSync('real.csv', join(dir, 'link.csv'));
    const run = await runInProcess(['results', '--limit', '2', '-o', join(dir, 'link.csv')], env());
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toMatch(/^id,exchange_name,/);
    expect(readdirSync(dir).sort()).toEqual(['link.csv', 'real.csv']);
  });

  it('follows a chain of links, with `..` taken after the link before it, as the kernel does', async () => {
    const dir = tempDir('mkt-dangling-');
    mkdirSync(join(dir, 'data', 'deep'), { recursive: true });
    symlinkSync(join(dir, 'data', 'deep'), join(dir, 'deep'));
    symlinkSync('deep/../fees.csv', join(dir, 'second'));
    symlinkSync('second', join(dir, 'first.csv'));
    const run = await runInProcess(['results', '--limit', '2', '-o', join(dir, 'first.csv')], env());
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'data', 'fees.csv'), 'utf8')).toMatch(/^id,exchange_name,/);
    expect(readdirSync(dir).sort()).toEqual(['data', 'deep', 'first.csv', 'second']);
    expect(readdirSync(join(dir, 'data')).sort()).toEqual(['deep', 'fees.csv']);
  });

  it('names the target\'s directory when it does not exist, exit 1, and the link stays', async () => {
    const dir = tempDir('mkt-dangling-');
    symlinkSync('missing/real.csv', join(dir, 'link.csv'));
    const run = await runInProcess(['results', '--limit', '2', '-o', join(dir, 'link.csv')], env());
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: cannot write ${join(dir, 'link.csv')}: the directory ${join(dir, 'missing')} does not exist\n` });
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
  });
});

describe('-o that cannot be a file is refused before anything is sent', () => {
  async function recorded(args: string[]) {
    const server = await startServer((_request, response) => sendJson(response, 418, { detail: 'no request was expected' }));
    const run = await runInProcess(args, { env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' } });
    return { ...run, requests: server.requests.length };
  }

  it.each([['results'], ['fees', 'NYSE']])('refuses a directory for mkt %s, exit 2', async (...command) => {
    const dir = tempDir('mkt-dir-');
    const run = await recorded([...command, '-o', dir]);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `mkt: cannot write to ${dir}: it is a directory\nGive a file name to -o.\n`, requests: 0 });
  });

  it('refuses a symbolic link to a directory, exit 2', async () => {
    const dir = tempDir('mkt-dir-');
    symlinkSync(dir, join(dir, 'link'));
    const run = await recorded(['results', '-o', join(dir, 'link')]);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `mkt: cannot write to ${join(dir, 'link')}: it is a directory\nGive a file name to -o.\n`, requests: 0 });
  });

  it('refuses an empty file name, exit 2', async () => {
    const run = await recorded(['results', '-o', '']);
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: 'mkt: -o: the file name is empty\nGive a file name, or -o - for standard output.\n', requests: 0 });
  });

  it('names a directory that does not exist, exit 1', async () => {
    const path = join(tempDir('mkt-dir-'), 'missing', 'out.csv');
    const run = await recorded(['results', '-o', path]);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: cannot write ${path}: the directory ${join(path, '..')} does not exist\n`, requests: 0 });
  });
});

describe('-o -', () => {
  it('writes to standard output, and makes no file named "-"', async () => {
    const dir = tempDir('mkt-dash-');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const run = await runInProcess(['results', '--limit', '2', '-f', 'csv', '--columns', 'exchange_name', '-o', '-'], env());
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^exchange_name\r\n[^\r\n]+\r\n[^\r\n]+\r\n$/);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('a file system that refuses the write (point 3): one line naming the file, exit 1', () => {
  it('says the device is full for -o /dev/full, whenever the write fails', async () => {
    // Short and long exports: the stream may break before, during or after the last write. Each
    // length once, in NDJSON and CSV by turns.
    const outcomes = new Set<string>();
    for (let run = 0; run < 12; run++) {
      const args = ['results', '--limit', String(1 + run * 4), '-f', run % 2 ? 'csv' : 'ndjson', '-o', '/dev/full'];
      const { code, stdout, stderr } = await runInProcess(args, env());
      outcomes.add(JSON.stringify({ code, stdout, stderr }));
    }
    expect([...outcomes].map((outcome) => JSON.parse(outcome))).toEqual([
      { code: 1, stdout: '', stderr: 'mkt: cannot write /dev/full: no space left on device (ENOSPC)\n' },
    ]);
  });

  it('says the device is full when stdout is /dev/full', async () => {
    const run = await onFiles(['results', '--limit', '2', '-f', 'csv'], { stdout: '/dev/full' });
    expect(run).toEqual({ code: 1, stderr: 'mkt: cannot write to standard output: no space left on device (ENOSPC)\n' });
  });

  it('says permission is denied for a directory the user may not write to', async ({ skip }) => {
    const dir = tempDir('mkt-readonly-');
    chmodSync(dir, 0o555);
    // Root may write anywhere: as root, run mkt as nobody, who may not reach a clone in root's home.
    const nobody = process.getuid?.() === 0 ? 65534 : undefined;
    const path = join(dir, 'out.csv');
    const args = ['results', '--limit', '2', '-o', path];
    // This build first; a run that is not mkt's (Node could not load it) looks for one the user can run.
    let run = await onFiles(args, { uid: nobody });
    if (!run.stderr.startsWith('mkt: ')) {
      const runnable = mktRunnableBy(nobody);
      if (runnable.reason !== undefined) {
        console.warn(`skipped: ${runnable.reason}`);
        skip(runnable.reason);
      }
      run = await onFiles(args, { uid: nobody, bin: runnable.bin });
    }
    expect(run).toEqual({ code: 1, stderr: `mkt: cannot write ${path}: permission denied (EACCES)\n` });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('temporary files left by a killed run (point 4)', () => {
  /** A pid no process has: one that has exited (any program's: `true` starts quickest). */
  async function deadPid(): Promise<number> {
    const child = spawn('true');
    await once(child, 'exit');
    return child.pid as number;
  }

  it('are removed by the next run that writes the same file, when their writer is gone', async () => {
    const dir = tempDir('mkt-leftover-');
    const alive = spawn('sleep', ['60']);
    try {
      const dead = await deadPid();
      const leftovers = {
        dead: `.out.csv.tmp-${dead}-0123abcd`,
        alive: `.out.csv.tmp-${alive.pid}-0123abcd`,
        otherFile: `.other.csv.tmp-${dead}-0123abcd`,
        notOurs: `.out.csv.tmp-${dead}-notours`,
      };
      for (const name of Object.values(leftovers)) writeFileSync(join(dir, name), 'partial');
      const run = await runInProcess(['results', '--limit', '2', '-o', join(dir, 'out.csv')], env());
      expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(readdirSync(dir).sort()).toEqual([leftovers.alive, leftovers.otherFile, leftovers.notOurs, 'out.csv'].sort());
      expect(existsSync(join(dir, leftovers.dead))).toBe(false);
    } finally {
      alive.kill();
    }
  });
});
