import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';

describe('mkt config', () => {
  it('sets, gets, lists and unsets settings of the default profile', async () => {
    const dir = tempConfigDir();
    const env = { MKT_CONFIG_DIR: dir };
    for (const [name, value] of [['timeout', '12.5'], ['base_url', 'https://api.example.test'], ['format', 'csv'], ['retries', '0']]) {
      expect(await runInProcess(['config', 'set', name as string, value as string], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(await runInProcess(['config', 'get', 'base_url'], { env })).toMatchObject({ code: 0, stdout: 'https://api.example.test\n', stderr: '' });
    expect(await runInProcess(['config', 'get', 'timeout'], { env })).toMatchObject({ code: 0, stdout: '12.5\n' });
    expect(await runInProcess(['config', 'list'], { env })).toMatchObject({
      code: 0,
      stdout: 'base_url=https://api.example.test\nformat=csv\ntimeout=12.5\nretries=0\n',
      stderr: '',
    });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { timeout: 12.5, base_url: 'https://api.example.test', format: 'csv', retries: 0 } },
    });

    expect(await runInProcess(['config', 'unset', 'format'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await runInProcess(['config', 'unset', 'format'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await runInProcess(['config', 'list'], { env })).stdout).toBe('base_url=https://api.example.test\ntimeout=12.5\nretries=0\n');
  });

  it('exits 1 with nothing on stdout when a setting is not set, as git config does', async () => {
    expect(await runInProcess(['config', 'get', 'retries'], {})).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'mkt: retries is not set in profile "default" (the default is 4)\n',
    });
    expect(await runInProcess(['config', 'get', 'base_url'], {})).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'mkt: base_url is not set in profile "default"\n',
    });
  });

  it('keeps each profile its own settings', async () => {
    const dir = tempConfigDir();
    const env = { MKT_CONFIG_DIR: dir };
    await runInProcess(['config', 'set', 'format', 'json'], { env });
    await runInProcess(['config', 'set', 'format', 'ndjson', '--profile', 'work'], { env });
    await runInProcess(['config', 'set', 'retries', '7'], { env: { ...env, MKT_PROFILE: 'work' } });
    expect((await runInProcess(['config', 'list'], { env })).stdout).toBe('format=json\n');
    expect((await runInProcess(['config', 'list', '--profile', 'work'], { env })).stdout).toBe('format=ndjson\nretries=7\n');
    expect((await runInProcess(['config', 'get', 'format'], { env: { ...env, MKT_PROFILE: 'work' } })).stdout).toBe('ndjson\n');
  });

  it('prints the config directory, which MKT_CONFIG_DIR sets and XDG_CONFIG_HOME otherwise decides', async () => {
    const dir = tempConfigDir();
    expect(await runInProcess(['config', 'path'], { env: { MKT_CONFIG_DIR: dir } })).toMatchObject({ code: 0, stdout: `${dir}\n`, stderr: '' });
    if (process.platform === 'linux') {
      const xdg = tempConfigDir();
      const run = await runInProcess(['config', 'path'], { env: { MKT_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg } });
      expect(run.stdout).toBe(`${join(xdg, 'mkt')}\n`);
      await runInProcess(['config', 'set', 'timeout', '3'], { env: { MKT_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg } });
      expect(existsSync(join(xdg, 'mkt', 'config.json'))).toBe(true);
    }
  });

  it('has an empty list for a profile with nothing stored', async () => {
    expect(await runInProcess(['config', 'list', '--profile', 'fresh'], {})).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('still works when MKT_BASE_URL is bad, so that the profile can be fixed', async () => {
    const env = { MKT_CONFIG_DIR: tempConfigDir(), MKT_BASE_URL: 'ftp://x' };
    expect(await runInProcess(['config', 'set', 'base_url', 'https://ok.example.test'], { env })).toMatchObject({ code: 0 });
    expect((await runInProcess(['config', 'get', 'base_url'], { env })).stdout).toBe('https://ok.example.test\n');
  });

  it.each([
    [['config', 'set', 'timeout', '0'], 'mkt: timeout must be a number of seconds greater than 0, at most 86400, not "0"\n'],
    [['config', 'set', 'retries', 'many'], 'mkt: retries must be a whole number ≥ 0, not "many"\n'],
    [['config', 'set', 'format', 'xml'], 'mkt: format must be one of table, json, ndjson, csv, parquet, not "xml"\n'],
    [['config', 'set', 'base_url', 'ftp://files.example.test'], 'mkt: base_url must be an http:// or https:// URL, not "ftp://files.example.test"\n'],
    [['config', 'set', 'colour', 'red'], 'mkt: unknown setting "colour"\nSettings are: base_url, format, timeout, retries, exchanges_auth, results_auth.\n'],
    [['config', 'get', 'api_key'], 'mkt: unknown setting "api_key"\nSettings are: base_url, format, timeout, retries, exchanges_auth, results_auth.\n'],
    [['config', 'unset', 'key'], 'mkt: unknown setting "key"\nSettings are: base_url, format, timeout, retries, exchanges_auth, results_auth.\n'],
    [['config', 'list', '--profile', 'no good'],
      'mkt: invalid profile name "no good" (from --profile)\n'
      + 'A profile name is up to 64 letters, digits, "-" and "_", starting with a letter or digit.\n'],
  ])('exits 2 on %j, writing nothing', async (args, stderr) => {
    const dir = tempConfigDir();
    expect(await runInProcess(args, { env: { MKT_CONFIG_DIR: dir } })).toMatchObject({ code: 2, stdout: '', stderr });
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('names a corrupt config file and leaves it as it is', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {');
    for (const args of [['config', 'list'], ['config', 'set', 'timeout', '5']]) {
      expect(await runInProcess(args, { env: { MKT_CONFIG_DIR: dir } })).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `mkt: ${file} is not valid JSON: expected property name or '}' at line 1, column 15\nFix the file by hand, or delete it and set the values again.\n`,
      });
    }
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": {');
  });
});
