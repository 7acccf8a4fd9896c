import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULTS_KEY_HEADER } from '../../src/api/paths.js';
import { selfSignedEcCertificate } from '../helpers/certificate.js';
import { installed } from '../helpers/installed.js';
import { emptyResultsPage, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runMkt, tempConfigDir } from '../helpers/run-mkt.js';

// Issue 35, point 1: the key goes only to the base URL's origin. Every "other host" here is on
// loopback (127.0.0.2), or an address no test ever reaches because mkt refuses before sending.
const KEY = 'origin-test-key-0123456789';
const startServer = useRecordingServers();
/** A server that answers every request with a page of one of 3 records. */
const answerOnePage = (host?: string) =>
  startServer((_request, response) => sendJson(response, 200, { ...emptyResultsPage(1), total_records: 3, total_pages: 3 }), host);

const emptySegment = (label: string, url: string, suggestion: string, hint = '') =>
  `mkt: ${label} must not have an empty segment ("//") in its path (${url}): it could name another host\nDid you mean ${suggestion}?${hint}\n`;

describe('a base URL whose path starts with // sends nothing to the host it seems to name', () => {
  it('--base-url http://127.0.0.1:P//127.0.0.2:Q: exit 2, neither server hears of the key', async () => {
    const service = await answerOnePage();
    const other = await answerOnePage('127.0.0.2');
    const otherHost = new URL(other.url).host;
    const baseUrl = `${service.url}//${otherHost}`;
    const run = await runInProcess(['results', '--base-url', baseUrl, '--format', 'json'], { env: { MKT_API_KEY: KEY } });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: emptySegment('--base-url', baseUrl, `${service.url}/${otherHost}`) });
    expect(service.requests).toEqual([]);
    expect(other.requests).toEqual([]);
  });

  it('auth login --base-url http://127.0.0.1:P//127.0.0.2:Q: exit 2 before reading the key, nothing sent, nothing stored', async () => {
    const service = await answerOnePage();
    const other = await answerOnePage('127.0.0.2');
    const dir = tempConfigDir();
    const otherHost = new URL(other.url).host;
    const baseUrl = `${service.url}//${otherHost}`;
    const run = await runInProcess(['auth', 'login', '--base-url', baseUrl], { env: { MKT_CONFIG_DIR: dir }, input: KEY });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: emptySegment('--base-url', baseUrl, `${service.url}/${otherHost}`) });
    expect(service.requests).toEqual([]);
    expect(other.requests).toEqual([]);
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it.skipIf(!installed('openssl'))('over TLS, https://data.example.invalid//127.0.0.1:P sends no Bearer key to 127.0.0.1:P (skipped without openssl)', async () => {
    const certificate = selfSignedEcCertificate();
    const heard: (string | undefined)[] = [];
    const server: Server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (incoming, response) => {
      heard.push(incoming.headers.authorization);
      sendJson(response, 200, { fee_schedule: [] });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `https://data.example.invalid//127.0.0.1:${(server.address() as AddressInfo).port}`;
      // A process of its own: Node reads NODE_EXTRA_CA_CERTS, which would trust the server, only at start-up.
      const run = await runMkt(['fees', 'NYSE'], { env: { NODE_EXTRA_CA_CERTS: certificate.certFile, MKT_BASE_URL: baseUrl, MKT_API_KEY: KEY } });
      expect(run).toMatchObject({
        code: 2,
        stdout: '',
        stderr: emptySegment('MKT_BASE_URL', baseUrl, baseUrl.replace('//127', '/127'), ' Fix or unset MKT_BASE_URL.'),
      });
      expect(heard).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  // 10.255.255.1 is never contacted: these runs stop before any connection.
  const farAway = (service: string) => `${service}//10.255.255.1:18211`;
  const farAwayTidied = (service: string) => `${service}/10.255.255.1:18211`;

  it.each<[string, (url: string) => { argv: string[]; env?: Record<string, string> }, string, string]>([
    ['--base-url', (url) => ({ argv: ['fees', 'NYSE', '--base-url', url] }), '--base-url', ''],
    ['MKT_BASE_URL', (url) => ({ argv: ['fees', 'NYSE'], env: { MKT_BASE_URL: url } }), 'MKT_BASE_URL', ' Fix or unset MKT_BASE_URL.'],
    ['mkt config set', (url) => ({ argv: ['config', 'set', 'base_url', url] }), 'base_url', ''],
  ])('the issue\'s http://127.0.0.1:P//10.255.255.1:18211 from %s: exit 2, the message, nothing sent', async (_source, invocation, label, hint) => {
    const service = await answerOnePage();
    const dir = tempConfigDir();
    const { argv, env } = invocation(farAway(service.url));
    const run = await runInProcess(argv, { env: { MKT_CONFIG_DIR: dir, MKT_API_KEY: KEY, ...env } });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: emptySegment(label, farAway(service.url), farAwayTidied(service.url), hint) });
    expect(service.requests).toEqual([]);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('the same base URL stored in config.json: exit 2 naming the file, with how to fix it', async () => {
    const service = await answerOnePage();
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { base_url: farAway(service.url) } } }));
    for (const argv of [['fees', 'NYSE'], ['auth', 'status']]) {
      const run = await runInProcess(argv, { env: { MKT_CONFIG_DIR: dir, MKT_API_KEY: KEY } });
      expect(run).toMatchObject({
        code: 2,
        stdout: '',
        stderr: emptySegment(
          `base_url of profile "default" in ${join(dir, 'config.json')}`,
          farAway(service.url),
          farAwayTidied(service.url),
          ' Run `mkt config set base_url <value> --profile default` or `mkt config unset base_url --profile default`.',
        ),
      });
    }
    expect(service.requests).toEqual([]);
    expect(await runInProcess(['config', 'unset', 'base_url'], { env: { MKT_CONFIG_DIR: dir } })).toMatchObject({ code: 0, stderr: '' });
  });

  it('a trailing // is refused too, with the URL without it offered', async () => {
    const service = await answerOnePage();
    const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: `${service.url}//`, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: emptySegment('MKT_BASE_URL', `${service.url}//`, `${service.url}/`, ' Fix or unset MKT_BASE_URL.') });
    expect(service.requests).toEqual([]);
  });
});

describe('auth login and auth status name the origin the key goes to', () => {
  it('login names the origin of the one request that proved the key; a base path is kept under it', async () => {
    const service = await answerOnePage();
    const dir = tempConfigDir();
    const run = await runInProcess(['auth', 'login', '--base-url', `${service.url}/mkt/`], { env: { MKT_CONFIG_DIR: dir }, input: KEY });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: `Logged in to ${service.url} as profile "default": the key reaches 3 fee schedule results.\n` });
    expect(service.requests.map(({ url, headers }) => [url, headers[RESULTS_KEY_HEADER]])).toEqual([
      ['/mkt/api/v1/fee-schedule-results?page_size=1', KEY],
    ]);
  });

  it('status shows the origin under the base URL', async () => {
    const run = await runInProcess(['auth', 'status'], { env: { MKT_BASE_URL: 'https://data.example.test:8443/mkt/', MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 0,
      stderr: '',
      stdout:
        'profile   default\n'
        + 'base URL  https://data.example.test:8443/mkt/ (from MKT_BASE_URL)\n'
        + 'origin    https://data.example.test:8443 (the only one the key is sent to)\n'
        + 'key       …6789 (from MKT_API_KEY)\n',
    });
  });
});
