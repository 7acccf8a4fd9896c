import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MktError } from '../../../src/errors.js';
import { openProfileStore } from '../../../src/config/store.js';
import { readProfileSettings, readStoredApiKey } from '../../../src/config/reader.js';

const posix = process.platform !== 'win32';
const roots: string[] = [];
function tempDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'mkt-store-'));
  roots.push(root);
  return join(root, 'nested', 'mkt');
}
const mode = (file: string) => statSync(file).mode & 0o777;
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('openProfileStore', () => {
  it('writes settings and keys per profile, in the files the reader reads', async () => {
    const store = await openProfileStore(tempDir());
    store.setSetting('default', 'base_url', 'https://a.example.test');
    store.setSetting('work', 'timeout', 12.5);
    store.storeApiKey('work', 'key-work-0001');

    expect(readJson(store.files.settings)).toEqual({
      profiles: { default: { base_url: 'https://a.example.test' }, work: { timeout: 12.5 } },
    });
    expect(readJson(store.files.credentials)).toEqual({ profiles: { work: { api_key: 'key-work-0001' } } });
    expect(readProfileSettings(store.files, 'work')).toEqual({ timeout: 12.5 });
    expect(readStoredApiKey(store.files, 'work')).toBe('key-work-0001');
    expect(readStoredApiKey(store.files, 'default')).toBeUndefined();
  });

  it.runIf(posix)('creates the directory 0700 and the credentials file 0600', async () => {
    const store = await openProfileStore(tempDir());
    store.storeApiKey('default', 'key-0000-abcd');
    expect(mode(store.files.dir)).toBe(0o700);
    expect(mode(store.files.credentials)).toBe(0o600);
  });

  it.runIf(posix)('makes a credentials file that was readable by others 0600 when it rewrites it', async () => {
    const store = await openProfileStore(tempDir());
    store.storeApiKey('default', 'key-0000-abcd');
    chmodSync(store.files.credentials, 0o644);
    store.storeApiKey('default', 'key-1111-abcd');
    expect(mode(store.files.credentials)).toBe(0o600);
  });

  it('unsets and removes idempotently, dropping a profile left empty', async () => {
    const store = await openProfileStore(tempDir());
    store.setSetting('default', 'format', 'csv');
    store.setSetting('default', 'retries', 2);
    store.storeApiKey('default', 'key-0000-abcd');

    expect(store.unsetSetting('default', 'format')).toBe(true);
    expect(store.unsetSetting('default', 'format')).toBe(false);
    expect(readJson(store.files.settings)).toEqual({ profiles: { default: { retries: 2 } } });
    expect(store.unsetSetting('default', 'retries')).toBe(true);
    expect(readJson(store.files.settings)).toEqual({ profiles: {} });

    expect(store.removeApiKey('default')).toBe(true);
    expect(store.removeApiKey('default')).toBe(false);
    expect(store.removeApiKey('never-seen')).toBe(false);
    expect(readJson(store.files.credentials)).toEqual({ profiles: {} });
  });

  it('keeps entries it does not know about', async () => {
    const store = await openProfileStore(tempDir());
    store.setSetting('default', 'format', 'json');
    writeFileSync(store.files.settings, JSON.stringify({ profiles: { default: { format: 'json', later: 1 } }, other: true }));
    store.setSetting('default', 'retries', 1);
    expect(readJson(store.files.settings)).toEqual({ profiles: { default: { format: 'json', later: 1, retries: 1 } }, other: true });
  });

  it('refuses to overwrite a corrupt file, naming it and not quoting it', async () => {
    const store = await openProfileStore(tempDir());
    store.storeApiKey('default', 'key-0000-abcd');
    writeFileSync(store.files.credentials, '{"profiles": {"default": {"api_key": "key-0000-abcd"');
    const fresh = await openProfileStore(store.files.dir);
    let caught: unknown;
    try {
      fresh.storeApiKey('default', 'key-2222-abcd');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MktError);
    expect((caught as MktError).message).toBe(`${store.files.credentials} is not valid JSON`);
    expect(String((caught as MktError).hint)).not.toContain('key-');
    expect(readFileSync(store.files.credentials, 'utf8')).toContain('"key-0000-abcd"');
  });
});
