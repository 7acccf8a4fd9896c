import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MktError, UsageError } from '../../../src/core/errors.js';
import { resolveSettings } from '../../../src/config/resolve.js';
import { type ConfigFiles, configFiles } from '../../../src/config/paths.js';
import { setSetting, storeApiKey } from '../../../src/config/store.js';

let dir: string;
let store: { files: ConfigFiles };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mkt-resolve-'));
  const files = configFiles(dir);
  store = { files };
  await setSetting(files, 'default', 'base_url', 'https://stored.example.test');
  await setSetting(files, 'default', 'format', 'csv');
  await setSetting(files, 'default', 'timeout', 9);
  await setSetting(files, 'default', 'retries', 1);
  await setSetting(files, 'default', 'exchanges_auth', 'header:x-service-api-access-key');
  await storeApiKey(files, 'default', 'stored-key-1111');
  await setSetting(files, 'work', 'base_url', 'https://work.example.test');
  await storeApiKey(files, 'work', 'work-key-2222');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

function resolve(flags: Parameters<typeof resolveSettings>[0]['flags'] = {}, env: Record<string, string> = {}) {
  return resolveSettings({ flags, env: { MKT_CONFIG_DIR: dir, ...env } });
}

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error('expected a UsageError');
}

describe('resolveSettings', () => {
  it('takes everything from the stored profile when no flag or variable is given', () => {
    expect(resolve()).toEqual({
      profile: 'default',
      profileSource: 'default',
      baseUrl: 'https://stored.example.test',
      baseUrlSource: 'profile',
      apiKey: 'stored-key-1111',
      keySource: 'stored',
      defaultFormat: 'csv',
      timeoutSeconds: 9,
      retries: 1,
      keyPlacements: { exchanges: 'header:x-service-api-access-key', results: 'header:x-service-api-access-key' },
      configDir: dir,
    });
  });

  it('falls back to the defaults: profile "default", 30 s, 4 retries, the interface document\'s key headers, no base URL, no key, no format', () => {
    expect(resolveSettings({ flags: {}, env: { MKT_CONFIG_DIR: join(dir, 'empty') } })).toEqual({
      profile: 'default',
      profileSource: 'default',
      keySource: 'none',
      defaultFormat: undefined,
      timeoutSeconds: 30,
      retries: 4,
      keyPlacements: { exchanges: 'bearer', results: 'header:x-service-api-access-key' },
      configDir: join(dir, 'empty'),
    });
  });

  it('ranks a flag over a variable over the profile, for the profile name', () => {
    expect(resolve({}, { MKT_PROFILE: 'work' })).toMatchObject({ profile: 'work', profileSource: 'env', apiKey: 'work-key-2222' });
    expect(resolve({ profile: 'default' }, { MKT_PROFILE: 'work' })).toMatchObject({ profile: 'default', profileSource: 'flag' });
  });

  it('ranks --base-url over MKT_BASE_URL over the profile', () => {
    const env = { MKT_BASE_URL: 'http://127.0.0.1:9/env' };
    expect(resolve({}, env)).toMatchObject({ baseUrl: 'http://127.0.0.1:9/env', baseUrlSource: 'env' });
    expect(resolve({ baseUrl: 'https://flag.example.test' }, env)).toMatchObject({
      baseUrl: 'https://flag.example.test',
      baseUrlSource: 'flag',
    });
  });

  it('ranks flags over the profile for timeout and retries', () => {
    expect(resolve({ timeout: 2, retries: 0 })).toMatchObject({ timeoutSeconds: 2, retries: 0 });
  });

  it('lets MKT_API_KEY outrank the stored key', () => {
    expect(resolve({}, { MKT_API_KEY: 'env-key-3333' })).toMatchObject({ apiKey: 'env-key-3333', keySource: 'env' });
  });

  it('treats empty variables as unset', () => {
    expect(resolve({}, { MKT_API_KEY: '', MKT_BASE_URL: ' ', MKT_PROFILE: '' })).toMatchObject({
      profile: 'default',
      apiKey: 'stored-key-1111',
      baseUrl: 'https://stored.example.test',
    });
  });

  it('rejects bad values from flags and variables as usage errors that say where they came from', () => {
    expect(usageMessage(() => resolve({}, { MKT_BASE_URL: 'ftp://x' }))).toBe(
      'MKT_BASE_URL must be an http:// or https:// URL, not "ftp://x"',
    );
    expect(usageMessage(() => resolve({ baseUrl: 'nope' }))).toBe('--base-url must be an http:// or https:// URL, not "nope"');
    expect(usageMessage(() => resolve({}, { MKT_PROFILE: 'a b' }))).toBe('invalid profile name "a b" (from MKT_PROFILE)');
    expect(usageMessage(() => resolve({ profile: '../x' }))).toBe('invalid profile name "../x" (from --profile)');
    expect(usageMessage(() => resolve({}, { MKT_API_KEY: 'has space' }))).toBe(
      'the API key from MKT_API_KEY contains spaces, control or non-ASCII characters',
    );
  });

  it('rejects a bad stored value, naming the file and how to fix it', () => {
    writeFileSync(store.files.settings, JSON.stringify({ profiles: { default: { timeout: 'soon' } } }));
    let caught: unknown;
    try {
      resolve();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe(
      `timeout of profile "default" in ${store.files.settings} must be a number of seconds greater than 0, at most 86400, not "soon"`,
    );
    expect((caught as UsageError).hint).toBe(
      'Run `mkt config set timeout <value> --profile default` or `mkt config unset timeout --profile default`.',
    );
  });

  it('reports a corrupt file by name without quoting its content', () => {
    writeFileSync(store.files.credentials, '{"profiles": {"default": {"api_key": "stored-key-1111",,}}}');
    let caught: unknown;
    try {
      resolve();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MktError);
    expect((caught as MktError).message).toBe(`${store.files.credentials} is not valid JSON: expected double-quoted property name at line 1, column 56`);
    expect(`${(caught as MktError).message} ${(caught as MktError).hint}`).not.toContain('stored-key');
  });

  it('does not read the credentials file when MKT_API_KEY is set', () => {
    writeFileSync(store.files.credentials, 'not json');
    expect(resolve({}, { MKT_API_KEY: 'env-key-3333' })).toMatchObject({ keySource: 'env' });
  });

  it('rejects a file whose shape is not {"profiles": {...}}', () => {
    writeFileSync(store.files.settings, JSON.stringify({ profiles: ['default'] }));
    expect(() => resolve()).toThrow(`${store.files.settings} does not hold {"profiles": {"<name>": {…}}}`);
  });
});
