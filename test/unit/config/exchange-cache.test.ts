import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDirectory } from '../../../src/config/paths.js';
import { exchangeListFile, readExchangeList, writeExchangeList } from '../../../src/config/exchange-cache.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('the cached exchange list', () => {
  it('is read back as written, per profile', () => {
    const dir = tempDir('mkt-cache-');
    const list = { source: 'service' as const, fetchedAt: '2026-11-23T00:00:00.000Z', exchanges: [{ id: 'NYSE', name: 'New York Stock Exchange', records: 12 }, { id: 'IEX', name: null, records: null }] };
    writeExchangeList(dir, 'prod', list);
    expect(readExchangeList(dir, 'prod')).toEqual(list);
    expect(readExchangeList(dir, 'default')).toBeUndefined();
  });

  it('is nothing, never an error, when the file is broken, and drops entries that are not exchanges', () => {
    const dir = tempDir('mkt-cache-');
    mkdirSync(join(dir, 'exchanges'));
    writeFileSync(exchangeListFile(dir, 'a'), '{"exchanges": [');
    expect(readExchangeList(dir, 'a')).toBeUndefined();
    writeFileSync(exchangeListFile(dir, 'b'), '{"exchanges": [{"id": "NYSE", "name": null}, {"id": 3}, null, "IEX", {"id": "$(rm -rf ~)"}]}');
    expect(readExchangeList(dir, 'b')).toEqual({ source: 'service', fetchedAt: '', exchanges: [{ id: 'NYSE', name: null, records: null }] });
  });

  it.each([
    [{ MKT_CACHE_DIR: '/tmp/c' }, 'linux', '/tmp/c'],
    [{ XDG_CACHE_HOME: '/x' }, 'linux', '/x/mkt'],
    [{ XDG_CACHE_HOME: 'relative' }, 'linux', '/home/ann/.cache/mkt'],
    [{}, 'darwin', '/home/ann/Library/Caches/mkt'],
    [{ LOCALAPPDATA: 'D:\\Local' }, 'win32', 'D:\\Local\\mkt\\Cache'],
    [{}, 'win32', '\\home\\ann\\AppData\\Local\\mkt\\Cache'],
  ] as const)('lives in the OS cache directory: %j on %s', (env, platform, expected) => {
    expect(cacheDirectory(env, platform, '/home/ann')).toBe(expected);
  });
});
