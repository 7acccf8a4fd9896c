import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { checkBaseUrl, isLoopbackHost, serviceIdentity, serviceUrl } from '../../../src/http/base-url.js';

const check = (baseUrl: string | undefined, insecure = false) => checkBaseUrl(baseUrl, 'default', { insecure });

describe('checkBaseUrl', () => {
  it('accepts https anywhere and http on loopback', () => {
    expect(check('https://api.example.test/v').href).toBe('https://api.example.test/v');
    expect(check('http://127.0.0.1:8080').host).toBe('127.0.0.1:8080');
    expect(check('http://localhost:1').hostname).toBe('localhost');
    expect(check('http://[::1]:9').hostname).toBe('[::1]');
  });
  it('refuses plain http elsewhere unless insecure', () => {
    expect(() => check('http://api.example.test')).toThrow('refusing to send the API key over plain http to api.example.test');
    expect(check('http://api.example.test', true).host).toBe('api.example.test');
  });
  it('rejects a missing URL with advice', () => {
    expect(() => check(undefined)).toThrow(UsageError);
    expect(() => check(undefined)).toThrow('no base URL for profile "default"');
  });
  it('knows loopback hosts', () => {
    expect(isLoopbackHost('127.255.0.1')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(isLoopbackHost('localhost.example.test')).toBe(false);
  });
});

describe('checkBaseUrl keeps the key off plain http through a proxy that is not on loopback (issue 35, point 1)', () => {
  const service = 'http://127.0.0.1:8080';
  it('refuses a proxy elsewhere, naming it and the variable', () => {
    expect(() => checkBaseUrl(service, 'default', { proxyEnv: { http_proxy: 'http://192.0.2.2:3128' } })).toThrow(
      'refusing to send the API key over plain http through proxy 192.0.2.2:3128 (from http_proxy)',
    );
    expect(() => checkBaseUrl(service, 'default', { proxyEnv: { ALL_PROXY: 'http://0.0.0.0:3128' } })).toThrow('through proxy 0.0.0.0:3128 (from ALL_PROXY)');
  });
  it('allows a proxy on loopback, a host no_proxy lists, an https service, and --insecure', () => {
    expect(checkBaseUrl(service, 'default', { proxyEnv: { http_proxy: 'http://127.0.0.1:3128' } }).host).toBe('127.0.0.1:8080');
    expect(checkBaseUrl(service, 'default', { proxyEnv: { http_proxy: 'http://[::1]:3128' } }).host).toBe('127.0.0.1:8080');
    expect(checkBaseUrl(service, 'default', { proxyEnv: { http_proxy: 'http://192.0.2.2:3128', no_proxy: '127.0.0.1' } }).host).toBe('127.0.0.1:8080');
    expect(checkBaseUrl('https://api.example.test', 'default', { proxyEnv: { HTTPS_PROXY: 'http://192.0.2.2:3128' } }).host).toBe('api.example.test');
    expect(checkBaseUrl(service, 'default', { insecure: true, proxyEnv: { http_proxy: 'http://192.0.2.2:3128' } }).host).toBe('127.0.0.1:8080');
  });
});

describe('serviceUrl appends segments to the base URL, and never leaves it (issue 35, point 1)', () => {
  const query = new URLSearchParams({ page_size: '1' });
  it('keeps the base path, encodes each segment, replaces the query and drops the fragment', () => {
    expect(serviceUrl(new URL('https://api.example.test/mkt/?x=1#top'), ['api', 'v1', 'a/b?c#d'], query).href).toBe(
      'https://api.example.test/mkt/api/v1/a%2Fb%3Fc%23d?page_size=1',
    );
    expect(serviceUrl(new URL('http://127.0.0.1:8080'), ['api'], new URLSearchParams()).href).toBe('http://127.0.0.1:8080/api');
  });
  it('never reads a path starting with // as a host', () => {
    expect(serviceUrl(new URL('http://127.0.0.1:8080//10.255.255.1:18211'), ['api', 'v1'], query).href).toBe(
      'http://127.0.0.1:8080//10.255.255.1:18211/api/v1?page_size=1',
    );
    expect(serviceUrl(new URL('http://127.0.0.1:8080/'), ['', '10.255.255.1', 'api'], query).host).toBe('127.0.0.1:8080');
  });
  it('refuses a segment that climbs out of the base path', () => {
    expect(() => serviceUrl(new URL('https://api.example.test/mkt'), ['..', 'other'], query)).toThrow(
      'refusing to request https://api.example.test/other?page_size=1: mkt sends the key only under https://api.example.test/mkt/',
    );
    expect(() => serviceUrl(new URL('https://api.example.test/mkt'), ['%2e%2e'], query)).not.toThrow();
  });
});

describe('serviceIdentity tells services apart by scheme and host in lower case (issue 39, point 6)', () => {
  it('takes HTTP://, a host in capitals, the default port and trailing slashes for the same service', () => {
    for (const text of ['HTTP://127.0.0.1:8080', 'http://127.0.0.1:8080/', 'Http://127.0.0.1:8080//']) expect(serviceIdentity(text)).toBe('http://127.0.0.1:8080');
    expect(serviceIdentity('HTTPS://Data.Example.COM:443/Fees/')).toBe('https://data.example.com/Fees');
  });

  it('keeps apart what may be another service: the path, which is case-sensitive, the port and the scheme', () => {
    const identities = ['https://data.example.com/fees', 'https://data.example.com/Fees', 'https://data.example.com:8443/fees', 'http://data.example.com/fees'].map(serviceIdentity);
    expect(new Set(identities).size).toBe(4);
  });
});
