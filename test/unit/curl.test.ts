import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellWord } from '../../src/http/curl.js';

const KEY = 'k3y-0123456789';

/** What bash makes of `word`, with MKT_API_KEY set to `key`: one argument, printed back. */
function pasted(word: string, key = KEY): string {
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', `printf '%s' ${word}`], { env: { PATH: process.env.PATH, MKT_API_KEY: key }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('shellWord', () => {
  it.each([
    ['plain text is left bare', 'https://svc.example.com/api/v1/exchanges/NYSE/fees', 'https://svc.example.com/api/v1/exchanges/NYSE/fees'],
    ['a query is single-quoted', 'https://h/x?a=1&b=2', "'https://h/x?a=1&b=2'"],
    ["a ' in the text is closed, escaped and reopened", "it's $HOME `id`", "'it'\\''s $HOME `id`'"],
    ['the key in a header is the variable, in double quotes', `authorization: Bearer ${KEY}`, '"authorization: Bearer $MKT_API_KEY"'],
    ['a name character after the key takes braces', `x-key: ${KEY}_tail`, '"x-key: ${MKT_API_KEY}_tail"'],
    ['beside text double quotes would expand, the key stands alone in them', `https://h/x?key=${KEY}&a=$b`, `'https://h/x?key='"$MKT_API_KEY"'&a=$b'`],
  ])('%s', (_name, text, word) => {
    expect(shellWord(text, [KEY])).toBe(word);
    expect(pasted(word)).toBe(text);
  });

  it('takes the key out in its percent-encoded form too, as a query holds it', () => {
    const key = 'a+b/c= d';
    const text = `https://h/x?key=${encodeURIComponent(key)}&form=${new URLSearchParams({ key })}&again=${key}`;
    const word = shellWord(text, [key]);
    expect(word).toBe(`'https://h/x?key='"$MKT_API_KEY"'&form=key='"$MKT_API_KEY"'&again='"$MKT_API_KEY"`);
  });

  it('writes each of several keys as the variable, the longer first', () => {
    expect(shellWord('x: abcdef abc', ['abc', 'abcdef'])).toBe('"x: $MKT_API_KEY $MKT_API_KEY"');
  });

  it('reads a key that holds regular-expression characters as text', () => {
    const key = 'a.b*c';
    expect(shellWord('x: aXbbc', [key])).toBe("'x: aXbbc'");
    expect(shellWord(`x: ${key}`, [key])).toBe('"x: $MKT_API_KEY"');
  });
});

describe('curlCommand', () => {
  it('is the method, the URL and the headers in order, the key as "$MKT_API_KEY", and runs in bash as mkt would send it', () => {
    const request = {
      method: 'GET',
      url: new URL('https://svc.example.com/base/api/v1/fee-schedule-results?fee_type=Option&page_number=0'),
      headers: { 'user-agent': 'mkt/1.0.0', accept: 'application/json', 'x-service-api-access-key': KEY },
    };
    const line = curlCommand(request, [KEY]);
    expect(line).toBe(
      "curl -sS -X GET 'https://svc.example.com/base/api/v1/fee-schedule-results?fee_type=Option&page_number=0'"
      + " -H 'user-agent: mkt/1.0.0' -H 'accept: application/json' -H \"x-service-api-access-key: $MKT_API_KEY\"",
    );
    expect(line).not.toContain(KEY);
    // Each word as bash splits the line, with a curl that prints its arguments.
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', `curl() { printf '%s\\n' "$@"; }; ${line}`], { env: { PATH: process.env.PATH, MKT_API_KEY: KEY }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(result.stdout.split('\n').slice(0, -1)).toEqual([
      '-sS', '-X', 'GET', request.url.href,
      '-H', 'user-agent: mkt/1.0.0', '-H', 'accept: application/json', '-H', `x-service-api-access-key: ${KEY}`,
    ]);
  });
});
