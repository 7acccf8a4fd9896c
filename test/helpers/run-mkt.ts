import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir, unmadePath } from './temp-dir.js';

export const MKT_BIN = fileURLToPath(new URL('../../bin/mkt.js', import.meta.url));
const MKT_WITH_DEPS = fileURLToPath(new URL('./mkt-with-deps.cjs', import.meta.url));
/** test/helpers/mkt-runs.cjs: several runs of mkt in one Node process, each run's exit code and stderr given back. */
export const MKT_RUNS = fileURLToPath(new URL('./mkt-runs.cjs', import.meta.url));

export interface MktRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Variables on top of a clean environment (no MKT_*, no NO_COLOR/FORCE_COLOR). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  cwd?: string;
  /** Pages a sync stages between two commits (Deps.syncCommitPages): then the process runs mkt-with-deps.cjs, not bin/mkt.js. */
  syncCommitPages?: number;
  /** The script the process runs in place of this checkout's bin/mkt.js: another install's, or MKT_RUNS. */
  script?: string;
}

/** A fresh config directory holding `files` (name → text), empty by default, removed when the test file is done. */
export function tempConfigDir(files: Record<string, string> = {}): string {
  const dir = tempDir('mkt-config-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/**
 * This process's environment without what would change how mkt behaves (MKT_*, NO_COLOR, CLICOLOR*,
 * FORCE_COLOR, NODE_EXTRA_CA_CERTS, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME, the proxy variables
 * in either case: http_proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY), MKT_CONFIG_DIR, MKT_CACHE_DIR and MKT_DATA_DIR fresh
 * paths where nothing is yet (mkt makes them as on a first run) unless `extra` names them, then `extra` on top (`undefined` removes a variable).
 */
export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(MKT_|NO_COLOR$|FORCE_COLOR$|CLICOLOR$|CLICOLOR_FORCE$|NODE_EXTRA_CA_CERTS$|XDG_CONFIG_HOME$|XDG_CACHE_HOME$|XDG_DATA_HOME$)/.test(name) || /^(https?|all|no)_proxy$/i.test(name)) continue;
    env[name] = value;
  }
  if (!('MKT_CONFIG_DIR' in extra)) env.MKT_CONFIG_DIR = unmadePath('mkt-config-');
  if (!('MKT_CACHE_DIR' in extra)) env.MKT_CACHE_DIR = unmadePath('mkt-cache-');
  if (!('MKT_DATA_DIR' in extra)) env.MKT_DATA_DIR = unmadePath('mkt-data-');
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface SpawnedMkt {
  child: ChildProcessWithoutNullStreams;
  /** Resolves once stderr contains `text`. */
  stderrContains(text: string): Promise<void>;
  /** Resolves when the process has exited. */
  result: Promise<MktRun>;
}

/** Starts `node bin/mkt.js args…` (or `options.script`) as a user would, with pipes (not a terminal) on every stream. */
export function spawnMkt(args: readonly string[], options: RunOptions = {}): SpawnedMkt {
  const entry = options.syncCommitPages === undefined ? [options.script ?? MKT_BIN] : [MKT_WITH_DEPS, JSON.stringify({ syncCommitPages: options.syncCommitPages })];
  const child = spawn(process.execPath, [...entry, ...args], {
    env: cleanEnv(options.env ?? {}),
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const stderrWatchers: { text: string; resolve: () => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const watcher of stderrWatchers.filter((candidate) => stderr.includes(candidate.text))) watcher.resolve();
  });
  const result = new Promise<MktRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  child.stdin.end(options.input ?? '');
  return {
    child,
    result,
    stderrContains: (text) =>
      stderr.includes(text)
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            stderrWatchers.push({ text, resolve });
            void result.then((run) => reject(new Error(`mkt exited (${run.code}) before stderr showed ${JSON.stringify(text)}:\n${run.stderr}`)));
          }),
  };
}

/** Long enough for any run on a loaded machine: a run still going then has hung. */
const HUNG_AFTER_MS = 20_000;

/** Kills `child` with SIGKILL if it has not ended within HUNG_AFTER_MS; the function returned tells, once it has ended, whether it was. */
export function killWhenHung(child: ChildProcess): () => boolean {
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, HUNG_AFTER_MS);
  child.once('close', () => clearTimeout(timer));
  return () => killed;
}

/** Runs `node bin/mkt.js args…` to the end. */
export function runMkt(args: readonly string[], options: RunOptions = {}): Promise<MktRun> {
  return spawnMkt(args, options).result;
}
