import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { addVersions, control, listVersions } from '../contract/http.js';
import { copyMirror } from '../helpers/mirror-copy.js';
import { startRelay, useRelays } from '../helpers/relay.js';
import { useInProcessMkt } from '../helpers/mkt-in-process-command.js';
import { cleanEnv } from '../helpers/run-mkt.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 36: the recipe "Alert when a venue changes its fees" (docs/recipes.md), run as written
// there against the sandbox, night after night: it diffs exactly the fee schedules a sync names
// in changed_groups, and alerts once for each that changed.
const relay = useRelays();
const mkt = useInProcessMkt();

/**
 * Each test's own sandbox, started as every other (the same seed, the same records), behind one
 * URL, `service`: a mirror records the URL it was synced from, so every test whose service names
 * NASDAQ as the sandbox does starts from a copy of one first sync (`firstSynced`), as if made by
 * hand on its own machine, and changes only its own sandbox.
 */
const sandbox = {} as { current: RunningSandbox };
let service: Awaited<ReturnType<typeof startRelay>>;
let firstSynced: string;
const newSandbox = async () => {
  await sandbox.current?.close();
  sandbox.current = await startSandbox({ port: 0, records: 250 });
};
beforeAll(async () => {
  await newSandbox();
  service = await startRelay(() => sandbox.current.url);
  firstSynced = join(tempDir('mkt-recipe-'), 'fees.duckdb');
  expect((await runInProcess(['sync'], { env: { MKT_BASE_URL: service.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: firstSynced } })).code).toBe(0);
});
afterAll(async () => {
  await service?.close();
  await sandbox.current?.close();
});

/** The recipe's script, as docs/recipes.md gives it. */
function recipeScript(): string {
  const recipes = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8');
  const section = recipes.split('\n## Alert when a venue changes its fees\n')[1]?.split('\n## ')[0] ?? '';
  const script = /```sh\n(#!\/bin\/sh\n[\s\S]*?)```/.exec(section)?.[1];
  if (script === undefined) throw new Error('docs/recipes.md has no script under "Alert when a venue changes its fees"');
  return script;
}

/**
 * A machine for the script: `mkt` (run in this process: the script gives it absolute paths and
 * reads only what it prints) and a `mail` that notes each alert's subject,
 * recipient and whether its body is the diff's CSV, on a PATH of their own; one mirror.
 */
function machine(url: string) {
  const dir = tempDir('mkt-recipe-');
  const script = join(dir, 'fees-alert');
  const alerts = join(dir, 'alerts');
  writeFileSync(script, recipeScript());
  writeFileSync(alerts, '');
  mkt.install(dir);
  // mail -s SUBJECT TO < BODY
  writeFileSync(join(dir, 'mail'), '#!/bin/sh\nhead -n 1 | grep -q "^change," && body=csv || body=other\nprintf \'%s to %s, %s\\n\' "$2" "$3" "$body" >> "$ALERTS"\n');
  chmodSync(join(dir, 'mail'), 0o755);
  const env: Record<string, string> = {
    PATH: `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    MKT_BASE_URL: url,
    MKT_API_KEY: sandbox.current.keys.api_key,
    MKT_MIRROR: join(dir, 'fees.duckdb'),
    MKT_CONFIG_DIR: tempDir('mkt-config-'),
    MKT_CACHE_DIR: tempDir('mkt-cache-'),
    MKT_DATA_DIR: tempDir('mkt-data-'),
    ALERTS: alerts,
  };
  return {
    env,
    /** The mirror made by hand before the first night, as the recipe says. */
    async firstSync(): Promise<void> {
      expect((await runInProcess(['sync'], { env })).code).toBe(0);
    },
    /** That mirror, as the file's first sync made it: for a machine of `service`, before its sandbox changed. */
    firstSynced(): void {
      env.MKT_MIRROR = copyMirror(firstSynced, 'fees.duckdb');
    },
    /** One night's run of the script, and the alerts it sent. */
    night(extra: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string; alerts: string }> {
      writeFileSync(alerts, '');
      const child = spawn('sh', [script], { env: cleanEnv({ ...env, ...extra }) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr, alerts: readFileSync(alerts, 'utf8') }));
      });
    },
  };
}

/** The newest version the sandbox holds of a fee schedule. */
async function newestVersion(exchange: string, feeType: string): Promise<string> {
  const versions = await listVersions(sandbox.current);
  const newest = versions.find((version) => version.exchange_name === exchange && version.fee_type.toLowerCase() === feeType.toLowerCase() && version.latest);
  expect(newest).toBeDefined();
  return newest!.version_id;
}

describe('docs/recipes.md: alert when a venue changes its fees', () => {
  it('alerts for nothing on a night with nothing new, then once for the one fee schedule that changed', async () => {
    const host = machine(service.url);
    host.firstSynced();

    expect(await host.night()).toEqual({ code: 0, stdout: '', stderr: '', alerts: '' });

    await addVersions(sandbox.current, { exchange_name: 'NASDAQ', fee_type: 'Equity' });
    expect(await host.night()).toEqual({ code: 0, stdout: '', stderr: '', alerts: 'NASDAQ Equity fees changed to desk@example.com, csv\n' });

    expect((await control(sandbox.current, 'DELETE', `versions/${await newestVersion('NYSE', 'Equity')}`)).status).toBe(200);
    expect(await host.night()).toEqual({ code: 0, stdout: '', stderr: '', alerts: 'NYSE Equity fees changed to desk@example.com, csv\n' });

    expect(await host.night()).toEqual({ code: 0, stdout: '', stderr: '', alerts: '' });
  }, 60_000);

  it('exits 1 with mkt\'s message and alerts for nothing when the sync fails', async () => {
    await newSandbox();
    const host = machine(service.url);
    host.firstSynced();
    await addVersions(sandbox.current, { exchange_name: 'NASDAQ', fee_type: 'Equity' });
    // mkt sync exits 3; the script, 1.
    expect(await host.night({ MKT_API_KEY: 'bogus-key-0123456789' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'mkt: the service rejected the API key (401)\nMKT_API_KEY is set and was rejected: check it, or unset it to use the stored key.\n',
      alerts: '',
    });
    // The next night, with the key, the change is still news.
    expect(await host.night()).toEqual({ code: 0, stdout: '', stderr: '', alerts: 'NASDAQ Equity fees changed to desk@example.com, csv\n' });
  }, 60_000);

  it('says which diff failed, alerts for the others, and exits 1', async () => {
    // A service that names NASDAQ with a space: a name mkt diff refuses (exit 2).
    const renaming = await relay(sandbox.current.url, { rewrite: (_request, _status, body) => body.replaceAll('"exchange_name":"NASDAQ"', '"exchange_name":"NAS DAQ"') });
    const host = machine(renaming.url);
    await host.firstSync();
    await addVersions(sandbox.current, { exchange_name: 'NASDAQ', fee_type: 'Equity' });
    await addVersions(sandbox.current, { exchange_name: 'NYSE', fee_type: 'Equity' });
    const night = await host.night();
    expect({ code: night.code, stdout: night.stdout, alerts: night.alerts }).toEqual({
      code: 1,
      stdout: '',
      alerts: 'NYSE Equity fees changed to desk@example.com, csv\n',
    });
    expect(night.stderr).toBe(
      'mkt: exchange identifier "NAS DAQ" holds whitespace, a control character or "/"\n'
        + 'Give the identifier the service uses, e.g. NYSE or CBOE.\n'
        + 'mkt diff NAS DAQ Equity failed\n',
    );
  }, 60_000);
});
