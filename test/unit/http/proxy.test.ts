import { describe, expect, it } from 'vitest';
import { noProxyMatches, proxyFor } from '../../../src/http/proxy.js';

const HTTPS = new URL('https://api.example.com/v1');
const HTTP = new URL('http://127.0.0.1:8080');

describe('which variable names the proxy, as curl reads them', () => {
  it.each([
    ['lower case before upper case', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' }, HTTPS, 'https_proxy'],
    ['an empty variable counts as unset', { https_proxy: '', HTTPS_PROXY: 'http://upper:1' }, HTTPS, 'HTTPS_PROXY'],
    ['the scheme before ALL_PROXY', { HTTPS_PROXY: 'http://a:1', all_proxy: 'http://b:1' }, HTTPS, 'HTTPS_PROXY'],
    ['all_proxy before ALL_PROXY', { all_proxy: 'http://a:1', ALL_PROXY: 'http://b:1' }, HTTPS, 'all_proxy'],
    ['http_proxy for http', { http_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:1' }, HTTP, 'http_proxy'],
    ['never HTTP_PROXY, which a CGI script takes from a request header', { HTTP_PROXY: 'http://a:1', ALL_PROXY: 'http://b:1' }, HTTP, 'ALL_PROXY'],
  ])('%s', (_rule, env, target, variable) => {
    expect(proxyFor(target, env)?.variable).toBe(variable);
  });

  it('none for http when only HTTP_PROXY is set', () => {
    expect(proxyFor(HTTP, { HTTP_PROXY: 'http://a:1' })).toBeUndefined();
  });

  it('no_proxy before NO_PROXY', () => {
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'http://a:1', no_proxy: 'other.com', NO_PROXY: 'example.com' })?.variable).toBe('HTTPS_PROXY');
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'http://a:1', NO_PROXY: 'example.com' })).toBeUndefined();
  });

  it('a proxy a NO_PROXY entry bypasses is not even parsed', () => {
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'socks5://a:1', NO_PROXY: '*' })).toBeUndefined();
  });
});

describe('the proxy URL', () => {
  it('takes curl defaults: http:// when no scheme is given, port 1080 when none is', () => {
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'proxy.corp' })).toEqual({
      variable: 'HTTPS_PROXY',
      hostname: 'proxy.corp',
      port: 1080,
      host: 'proxy.corp:1080',
      authorization: undefined,
      display: 'http://proxy.corp:1080',
    });
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'http://proxy.corp:80/' })?.port).toBe(80);
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'http://[::1]:3128' })).toMatchObject({ hostname: '::1', port: 3128, host: '[::1]:3128' });
  });

  it('turns percent-encoded credentials into Basic authorization, and shows them as ***', () => {
    expect(proxyFor(HTTPS, { HTTPS_PROXY: 'http://ann%40corp:p%3Ass@proxy.corp:3128' })).toMatchObject({
      authorization: `Basic ${Buffer.from('ann@corp:p:ss').toString('base64')}`,
      display: 'http://***@proxy.corp:3128',
    });
  });

  it.each([
    ['http://user:secret@[bad', 'HTTPS_PROXY is not a proxy URL'],
    ['http://user:%zz@proxy.corp:3128', 'HTTPS_PROXY is not a proxy URL'],
    ['socks5h://user:secret@proxy.corp:1080', 'HTTPS_PROXY: mkt supports http:// proxies only, not socks5h://'],
  ])('refuses %s without quoting it', (value, message) => {
    expect(() => proxyFor(HTTPS, { HTTPS_PROXY: value })).toThrow(message);
  });
});

describe('NO_PROXY, as curl matches it', () => {
  it.each([
    ['example.com', 'https://example.com', true],
    ['example.com', 'https://api.example.com', true],
    ['.example.com', 'https://api.example.com', true],
    ['.example.com', 'https://example.com', true],
    ['example.com.', 'https://example.com.', true],
    ['EXAMPLE.com', 'https://example.COM', true],
    ['example.com', 'https://notexample.com', false],
    ['api.example.com', 'https://example.com', false],
    ['other.org example.com', 'https://example.com', true],
    ['other.org,,  example.com', 'https://example.com', true],
    ['*', 'https://anything.example', true],
    ['*,other.org', 'https://anything.example', false],
    ['127.0.0.1', 'http://127.0.0.1:8080', true],
    ['127.0.0.1', 'http://localhost:8080', false],
    ['localhost', 'http://127.0.0.1:8080', false],
    ['10.0.0.0/8', 'http://10.1.2.3', true],
    ['10.0.0.0/8', 'http://11.1.2.3', false],
    ['::1', 'http://[::1]:8080', true],
    ['[::1]', 'http://[::1]:8080', true],
    ['fd00::/8', 'https://[fd12::1]', true],
    ['example.com:443', 'https://example.com', true],
    ['example.com:8443', 'https://example.com', false],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080', true],
    ['[::1]:8080', 'http://[::1]:8080', true],
    ['[::1]:80', 'http://[::1]:8080', false],
  ])('%j with %s: %s', (list, url, matches) => {
    expect(noProxyMatches(list, new URL(url))).toBe(matches);
  });
});
