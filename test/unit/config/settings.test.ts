import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import {
  checkApiKey,
  checkProfileName,
  maskApiKey,
  parseSetting,
  parseSettingName,
  type SettingName,
} from '../../../src/config/settings.js';

describe('parseSetting', () => {
  it.each([
    ['base_url', 'https://api.example.test', 'https://api.example.test'],
    ['base_url', ' http://127.0.0.1:8080/prefix ', 'http://127.0.0.1:8080/prefix'],
    ['format', 'ndjson', 'ndjson'],
    ['timeout', '30', 30],
    ['timeout', '2.5', 2.5],
    ['retries', '0', 0],
    ['retries', '10', 10],
  ] as const)('accepts %s %j', (name, text, expected) => {
    expect(parseSetting(name, text)).toBe(expected);
  });

  it.each([
    ['base_url', 'ftp://example.test', 'base_url must be an http:// or https:// URL, not "ftp://example.test"'],
    ['base_url', 'example.test', 'base_url must be an http:// or https:// URL, not "example.test"'],
    ['format', 'xml', 'format must be one of table, json, ndjson, csv, parquet, not "xml"'],
    ['format', 'JSON', 'format must be one of table, json, ndjson, csv, parquet, not "JSON"; did you mean json?'],
    ['timeout', '0', 'timeout must be a number of seconds greater than 0, at most 86400, not "0"'],
    ['timeout', '-1', 'timeout must be a number of seconds greater than 0, at most 86400, not "-1"'],
    ['timeout', 'soon', 'timeout must be a number of seconds greater than 0, at most 86400, not "soon"'],
    ['timeout', '86401', 'timeout must be a number of seconds greater than 0, at most 86400, not "86401"'],
    ['timeout', '1e3', 'timeout must be a number of seconds greater than 0, at most 86400, not "1e3"'],
    ['retries', '1.5', 'retries must be a whole number ≥ 0, not "1.5"'],
    ['retries', '-1', 'retries must be a whole number ≥ 0, not "-1"'],
  ] as const)('rejects %s %j', (name: SettingName, text, message) => {
    expect(() => parseSetting(name, text)).toThrow(new UsageError(message));
  });

  it('names where the value came from, with its hint', () => {
    let caught: unknown;
    try {
      parseSetting('base_url', 'ftp://x', { label: 'MKT_BASE_URL', hint: 'Fix or unset MKT_BASE_URL.' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe('MKT_BASE_URL must be an http:// or https:// URL, not "ftp://x"');
    expect((caught as UsageError).hint).toBe('Fix or unset MKT_BASE_URL.');
  });
});

describe('exchanges_auth and results_auth: where the key goes', () => {
  it.each([
    ['bearer', 'bearer'],
    ['header:x-service-api-access-key', 'header:x-service-api-access-key'],
    ['header:X-Api-Key', 'header:x-api-key'],
    [' header:x_key ', 'header:x_key'],
  ])('takes %j as %j', (text, value) => {
    expect(parseSetting('exchanges_auth', text)).toBe(value);
    expect(parseSetting('results_auth', text)).toBe(value);
  });

  it.each(['Bearer', 'basic', 'header:', 'header:x api key', 'header:x-key:', 'header:x-kéy', 'header:x-key\r\nx-other: 1', 'header:host', 'header:Content-Length', `header:${'x'.repeat(65)}`])(
    'refuses %j: a header name is an RFC 9110 token the request does not set itself',
    (text) => {
      expect(() => parseSetting('exchanges_auth', text)).toThrow(
        `exchanges_auth must be bearer or header:<name>, with a header name (an RFC 9110 token) the request does not set itself, not ${JSON.stringify(text)}`,
      );
    },
  );
});

describe('parseSettingName', () => {
  it('accepts the six settings', () => {
    const names = ['base_url', 'format', 'timeout', 'retries', 'exchanges_auth', 'results_auth'];
    expect(names.map(parseSettingName)).toEqual(names);
  });

  it('rejects anything else, listing the valid names', () => {
    let caught: unknown;
    try {
      parseSettingName('base-url');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe('unknown setting "base-url"; did you mean base_url?');
    expect((caught as UsageError).hint).toBe('Settings are: base_url, format, timeout, retries, exchanges_auth, results_auth.');
  });
});

describe('checkProfileName', () => {
  it.each(['default', 'prod-eu', 'dev_2', 'A1'])('accepts %j', (name) => {
    expect(checkProfileName(name, 'from --profile')).toBe(name);
  });

  it.each(['', 'a b', 'a.b', '../x', '__proto__', '-x', 'é', 'x'.repeat(65)])('rejects %j', (name) => {
    expect(() => checkProfileName(name, 'from --profile')).toThrow(UsageError);
  });

  it('says where the bad name came from', () => {
    expect(() => checkProfileName('a/b', 'from MKT_PROFILE')).toThrow('invalid profile name "a/b" (from MKT_PROFILE)');
  });
});

describe('checkApiKey', () => {
  it('accepts printable ASCII', () => {
    expect(checkApiKey('sk_live-AbC.123~', 'standard input')).toBe('sk_live-AbC.123~');
  });

  it.each(['two words', 'tab\there', 'new\nline', 'clé'])('rejects %j without quoting the key', (key) => {
    let caught: unknown;
    try {
      checkApiKey(key, 'MKT_API_KEY');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toBe('the API key from MKT_API_KEY contains spaces, control or non-ASCII characters');
  });
});

describe('maskApiKey', () => {
  it('shows the last 4 characters only', () => {
    expect(maskApiKey('demo-key-0123abcd')).toBe('…abcd');
  });

  it('shows nothing of a key shorter than 8', () => {
    expect(maskApiKey('abcdefg')).toBe('…');
  });
});
