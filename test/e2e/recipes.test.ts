import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { type InProcessCall, type InProcessEnding, useInProcessMkt } from '../helpers/mkt-in-process-command.js';
import { cleanEnv } from '../helpers/run-mkt.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 39, point 11: each recipe of docs/recipes.md runs, as written, with the exit code it says.
const sandbox = useSandbox({ records: 200 });
const mkt = useInProcessMkt({ processFor: ['sandbox'], readsStdin: true, others: { duckdb: duckdbShell } });

interface Block {
  /** What the marker before it says: `test: NAME…`, or `not run: WHY`. */
  marker: string;
  text: string;
}

/** Every fenced block of docs/recipes.md, with the `<!-- … -->` line before it. */
function recipeBlocks(): Block[] {
  const lines = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^```\w*$/.test(lines[index]!)) continue;
    const end = lines.indexOf('```', index + 1);
    const marker = /^<!-- (.*) -->$/.exec(lines[index - 1] ?? '')?.[1] ?? '';
    blocks.push({ marker, text: `${lines.slice(index + 1, end).join('\n')}\n` });
    index = end;
  }
  return blocks;
}

/** The block marked `test: NAME`, as written. */
function recipe(name: string): string {
  const block = recipeBlocks().find(({ marker }) => marker === `test: ${name}` || marker.startsWith(`test: ${name} `) || marker.startsWith(`test: ${name},`));
  if (!block) throw new Error(`docs/recipes.md has no block marked "test: ${name}"`);
  return block.text;
}

/** A `duckdb` shell, played by DuckDB's JavaScript package: `duckdb -c SQL`, or the SQL on stdin; each row's values by tabs. */
async function duckdbShell({ args, stdin }: InProcessCall): Promise<InProcessEnding> {
  const sql = args[0] === '-c' ? args[1]! : await text(stdin);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const lines: string[] = [];
    const statements = await connection.extractStatements(sql);
    for (let index = 0; index < statements.count; index++) {
      const reader = await (await statements.prepare(index)).runAndReadAll();
      for (const row of reader.getRowsJS()) lines.push(`${row.map(String).join('\t')}\n`);
    }
    return { code: 0, stdout: lines.join(''), stderr: '' };
  } catch (error) {
    return { code: 1, stdout: '', stderr: `${(error as Error).message}\n` };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * A user's machine: `mkt` (this checkout's, run in this process but for `mkt sandbox`, which the
 * CI recipe runs in the background and stops with kill), a `mail` that keeps each message's
 * subject, and a `duckdb` shell (duckdbShell, in this process too), on a PATH of their own, in a working directory of their own.
 */
function machine() {
  const dir = tempDir('mkt-recipes-');
  const bin = tempDir('mkt-recipes-bin-');
  // Outside the working directory, whose files some recipes list.
  const mailLog = join(tempDir('mkt-recipes-mail-'), 'mail.log');
  mkt.install(bin);
  writeFileSync(join(bin, 'mail'), `#!/bin/sh\ncat > /dev/null\nprintf '%s\\n' "$2" >> '${mailLog}'\n`);
  chmodSync(join(bin, 'mail'), 0o755);
  const env = (extra: Record<string, string | undefined> = {}) =>
    cleanEnv({
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      MKT_BASE_URL: sandbox.current.url,
      MKT_API_KEY: sandbox.current.keys.api_key,
      ...extra,
    });
  return {
    dir,
    mailed: () => (existsSync(mailLog) ? readFileSync(mailLog, 'utf8') : ''),
    /** Runs a block with `sh -e` (a script with `#!/bin/sh` as a script), in `dir`. */
    run(script: string, extra: Record<string, string | undefined> = {}, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
      const child = spawn('sh', script.startsWith('#!/bin/sh') ? ['-c', script] : ['-e', '-c', script], { cwd: dir, env: env(extra) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin.end(input);
      return new Promise((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    },
  };
}

describe('docs/recipes.md', () => {
  it('marks every block: run by a test, or why not', () => {
    const blocks = recipeBlocks();
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.filter(({ marker }) => !/^(test: |not run)/.test(marker))).toEqual([]);
  });

  it('a nightly export to Parquet: exit 0 and the dated file; exit 3 and its log line for a refused key', async () => {
    const host = machine();
    const script = recipe('nightly-export').replaceAll('/data/fees/', `${host.dir}/`);
    const night = await host.run(script);
    expect(night).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(host.dir, `fees-${new Date().toISOString().slice(0, 10)}.parquet`))).toBe(true);
    const refused = await host.run(script, { MKT_API_KEY: 'not-a-key-of-the-sandbox' });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/\nfees-nightly: the key was refused or is not licensed \(exit 3\): run mkt auth status\n$/);
  });

  it('jq one-liners over NDJSON: every command succeeds', async () => {
    const host = machine();
    const run = await host.run(recipe('jq'));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^ +\d+ \w+\n/);
  });

  it("the Parquet file in DuckDB: the shell's statements and the one-line command read the export", async () => {
    const host = machine();
    const export_ = recipe('nightly-export').replaceAll('/data/fees/', `${host.dir}/`).replaceAll('$(date +%F)', '2024-06-01');
    expect((await host.run(export_)).code).toBe(0);
    const shell = await host.run('duckdb', {}, recipe('duckdb-shell').replaceAll('/data/fees/', `${host.dir}/`));
    expect(shell).toMatchObject({ code: 0, stderr: '' });
    // The last statement's answer: every record has a monthly volume condition or not.
    expect(shell.stdout).toMatch(/\n\d+\n$/);
    const command = await host.run(recipe('duckdb-command'));
    expect(command).toMatchObject({ code: 0, stderr: '' });
    expect(command.stdout).toMatch(/^Equity\t\d+$/m);
  });

  it('dev and prod profiles: stored, used, and a typo in a name is exit 2', async () => {
    const host = machine();
    // The service's two URLs are the sandbox's; the keys come from files, as the recipe has them.
    writeFileSync(join(host.dir, 'dev-key.txt'), `${sandbox.current.keys.api_key}\n`);
    writeFileSync(join(host.dir, 'prod-key.txt'), `${sandbox.current.keys.scoped_api_key}\n`);
    const config = { MKT_CONFIG_DIR: tempDir('mkt-recipes-config-'), MKT_BASE_URL: undefined, MKT_API_KEY: undefined };
    const store = recipe('profiles-store').replace(/https:\/\/(dev\.)?data\.example\.com/g, sandbox.current.url);
    expect(await host.run(store, config)).toMatchObject({ code: 0 });
    const use = await host.run(recipe('profiles-use'), config);
    expect(use).toMatchObject({ code: 0, stderr: '' });
    expect(use.stdout).toContain('format=csv');
    const typo = recipe('profile-typo');
    const run = await host.run(typo, config);
    expect(run.code).toBe(2);
    // The message the recipe shows in its comment.
    expect(run.stderr.split('\n')[0]).toBe(/# (.*)$/m.exec(typo)?.[1]);
  });

  it('the sandbox in your own CI: the step exits 0 and leaves the CSV', async () => {
    const host = machine();
    // A smaller sandbox than the recipe's: what the step shows is the same for any number of records.
    const script = recipe('ci-sandbox');
    expect(script).toContain(' --records 5000 ');
    expect(await host.run(script.replace(' --records 5000 ', ' --records 100 '), { MKT_BASE_URL: undefined, MKT_API_KEY: undefined })).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(host.dir, 'results.csv'), 'utf8')).toMatch(/^id,exchange_name,/);
  });

  it("where a month's volume costs least: exchanges, then compare, exit 0", async () => {
    const host = machine();
    expect(await host.run(recipe('exchanges'))).toMatchObject({ code: 0, stderr: '' });
    const compare = await host.run(recipe('compare'));
    expect(compare).toMatchObject({ code: 0 });
    expect(readFileSync(join(host.dir, 'venues.csv'), 'utf8')).toMatch(/^exchange,/);
  });

  it('amounts as numbers: with jq, with DuckDB on the Parquet file, and with mkt sql on the mirror', async () => {
    const host = machine();
    const jq = await host.run(recipe('amounts-jq'));
    expect(jq).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(jq.stdout)).toEqual(expect.arrayContaining([{ exchange: 'NYSE', mean: expect.any(Number) }]));
    const duckdb = await host.run(recipe('amounts-duckdb'));
    expect(duckdb).toMatchObject({ code: 0, stderr: '' });
    expect(duckdb.stdout).toMatch(/^NYSE\t-?\d/m);
    const sql = await host.run(recipe('amounts-sql'));
    expect(sql).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(sql.stdout)).toEqual(expect.arrayContaining([{ exchange_name: 'NYSE', mean: expect.any(Number) }]));
  });

  it('is the key still good: the crontab line mails nothing for a good key, and mails for a refused one', async () => {
    const host = machine();
    const command = recipe('key-check').replace(/^(\S+ ){5}/, '');
    const config = { MKT_CONFIG_DIR: tempDir('mkt-recipes-config-'), MKT_BASE_URL: undefined, MKT_API_KEY: undefined };
    const login = (key: string) => host.run(`mkt auth login --profile prod --base-url ${sandbox.current.url}`, config, `${key}\n`);
    expect((await login(sandbox.current.keys.api_key)).code).toBe(0);
    expect(await host.run(command, config)).toMatchObject({ code: 0, stdout: '' });
    expect(host.mailed()).toBe('');
    expect((await login(sandbox.current.keys.scoped_api_key)).code).toBe(0);
    // A key the service refuses, as after it was revoked: auth login checks it, so it is stored by hand here.
    writeFileSync(join(config.MKT_CONFIG_DIR, 'credentials.json'), JSON.stringify({ profiles: { prod: { api_key: 'revoked-key-of-the-recipe' } } }));
    expect(await host.run(command, config)).toMatchObject({ code: 0 });
    expect(host.mailed()).toBe('mkt key\n');
  });
});
