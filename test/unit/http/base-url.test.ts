import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { checkBaseUrl, isLoopbackHost } from '../../../src/http/base-url.js';

const check = (baseUrl: string | undefined, insecure = false) => checkBaseUrl(baseUrl, 'default', insecure);

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
