import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDirectory } from '../../../src/config/paths.js';
import { exchangeListFile, filterValuesFile, readExchangeList, readFilterValues, writeExchangeList, writeFilterValues } from '../../../src/config/exchange-cache.js';
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

describe('the kept filter values', () => {
  it('are read back as written, per profile, a service without any included', () => {
    const dir = tempDir('mkt-cache-');
    const kept = { fetchedAt: '2026-11-23T00:00:00.000Z', values: { fee_category: ['fees_and_rebates', 'general_provisions'], fee_trade_type: [] } };
    writeFilterValues(dir, 'prod', kept);
    writeFilterValues(dir, 'old', { fetchedAt: '2026-11-23T00:00:00.000Z', values: null });
    expect(readFilterValues(dir, 'prod')).toEqual(kept);
    expect(readFilterValues(dir, 'old')).toEqual({ fetchedAt: '2026-11-23T00:00:00.000Z', values: null });
    expect(readFilterValues(dir, 'default')).toBeUndefined();
  });

  it('are nothing when the file is broken, and drop what is not a plain value', () => {
    const dir = tempDir('mkt-cache-');
    mkdirSync(join(dir, 'filter-values'));
    writeFileSync(filterValuesFile(dir, 'a'), '{"fetchedAt": "x", "values": {');
    expect(readFilterValues(dir, 'a')).toBeUndefined();
    writeFileSync(filterValuesFile(dir, 'b'), '{"values": {}}');
    expect(readFilterValues(dir, 'b')).toBeUndefined();
    writeFileSync(filterValuesFile(dir, 'c'), '{"fetchedAt": "t", "values": {"fee_type": ["option", 3, "$(rm -rf ~)", "a\\nb"], "fee_action": "make", "other": ["x"]}}');
    expect(readFilterValues(dir, 'c')).toEqual({ fetchedAt: 't', values: { fee_type: ['option'] } });
  });
});
