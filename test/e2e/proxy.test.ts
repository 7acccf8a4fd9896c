import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { selfSignedEcCertificate } from '../helpers/certificate.js';
import { installed } from '../helpers/installed.js';
import { closedPort, emptyResultsPage, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { runMkt } from '../helpers/run-mkt.js';

// Issue 14, point 9: HTTPS_PROXY, http_proxy, ALL_PROXY and NO_PROXY as curl reads them.
const KEY = 'proxy-test-key-0123456789';
const PROXY_USER = 'ann@corp';
const PROXY_PASSWORD = 'proxy-secret:42';
const PROXY_CREDENTIALS = `${encodeURIComponent(PROXY_USER)}:${encodeURIComponent(PROXY_PASSWORD)}`;
const PROXY_AUTHORIZATION = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;

const startServer = useRecordingServers();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      // Tunnels and keep-alive connections would hold the server open.
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

interface Passed {
  method: string;
  /** `HOST:PORT` for a CONNECT, the absolute URL for a forwarded request. */
  url: string;
  headers: IncomingHttpHeaders;
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * A forward proxy on 127.0.0.1: CONNECT tunnels, and requests with an absolute URL relayed.
 * It records what passed through, and answers CONNECT with `connectStatus` when given.
 */
async function startProxy(connectStatus?: string) {
  const passed: Passed[] = [];
  const proxy = createServer((incoming, response) => {
    passed.push({ method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers });
    const target = new URL(incoming.url ?? '');
    const { 'proxy-authorization': _, ...headers } = incoming.headers;
    const relayed = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    relayed.on('error', () => response.destroy());
    incoming.pipe(relayed);
  });
  proxy.on('connect', (incoming, client, head) => {
    passed.push({ method: 'CONNECT', url: incoming.url ?? '', headers: incoming.headers });
    if (connectStatus) {
      client.end(`HTTP/1.1 ${connectStatus}\r\n\r\n`);
      return;
    }
    const [host = '', port] = (incoming.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(proxy);
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, passed };
}


describe('an https service through a CONNECT tunnel', () => {
  it.skipIf(!installed('openssl'))('tunnels with the proxy credentials, TLS to the service inside, and keeps the tunnel for the retry (skipped without openssl)', async () => {
    const certificate = selfSignedEcCertificate();
    const served: IncomingHttpHeaders[] = [];
    const service = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (incoming, response) => {
      served.push(incoming.headers);
      // A 503 first: the retry goes over the same tunnel, kept alive.
      if (served.length === 1) sendJson(response, 503, { detail: 'busy' }, { 'retry-after': '0' });
      else sendJson(response, 200, emptyResultsPage());
    });
    const servicePort = await listen(service);
    const proxy = await startProxy();
    // A process of its own: Node reads NODE_EXTRA_CA_CERTS, which trusts the test's certificate, only at start-up.
    const run = await runMkt(['results', '--format', 'json'], {
      env: {
        HTTPS_PROXY: `http://${PROXY_CREDENTIALS}@${proxy.host}`,
        NODE_EXTRA_CA_CERTS: certificate.certFile,
        MKT_BASE_URL: `https://127.0.0.1:${servicePort}`,
        MKT_API_KEY: KEY,
      },
    });
    expect(run).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(proxy.passed).toEqual([
      { method: 'CONNECT', url: `127.0.0.1:${servicePort}`, headers: expect.objectContaining({ 'proxy-authorization': PROXY_AUTHORIZATION }) },
    ]);
    expect(served).toEqual([
      expect.objectContaining({ 'x-service-api-access-key': KEY }),
      expect.objectContaining({ 'x-service-api-access-key': KEY }),
    ]);
    expect(served[0]).not.toHaveProperty('proxy-authorization');
  });

  it('a 407 to CONNECT is one line naming the proxy and the service, not retried', async () => {
    const proxy = await startProxy('407 Proxy Authentication Required');
    const run = await runInProcess(['fees', 'NYSE'], {
      env: { HTTPS_PROXY: proxy.url, MKT_BASE_URL: 'https://data.example.com', MKT_API_KEY: KEY },
    });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: proxy ${proxy.host} answered 407 Proxy Authentication Required to CONNECT data.example.com:443\n`
        + 'Check the user and password in HTTPS_PROXY: http://USER:PASSWORD@HOST:PORT.\n',
    });
    expect(proxy.passed.map(({ method, url }) => `${method} ${url}`)).toEqual(['CONNECT data.example.com:443']);
  });

  it('a proxy that never answers CONNECT is a timeout, and the run still ends', async () => {
    const silent = createServer();
    // Held open, unanswered, until mkt hangs up: which it must, or closing the server waits for ever.
    silent.on('connect', (_request, socket) => socket.on('end', () => socket.end()));
    const port = await listen(silent);
    const run = await runInProcess(['fees', 'NYSE', '--timeout', '0.3', '--retries', '0'], {
      env: { HTTPS_PROXY: `http://127.0.0.1:${port}`, MKT_BASE_URL: 'https://data.example.com', MKT_API_KEY: KEY },
    });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'mkt: gave up after 1 try: no complete answer from data.example.com within 0.3 s\nRaise --timeout, or check the service is up.\n',
    });
  });

  it('a proxy that is down is named as the proxy', async () => {
    const down = await closedPort();
    const run = await runInProcess(['fees', 'NYSE', '--retries', '0'], {
      env: { https_proxy: down, MKT_BASE_URL: 'https://data.example.com', MKT_API_KEY: KEY },
    });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: gave up after 1 try: connection refused by proxy ${new URL(down).host}\n` });
  });
});

describe('an http service through the proxy, absolute URL as the path', () => {
  it('http_proxy: the request goes to the proxy with its credentials; --verbose names the proxy once, without them', async () => {
    const service = await startServer((_request, response) => sendJson(response, 200, emptyResultsPage()));
    const proxy = await startProxy();
    const run = await runInProcess(['results', '--format', 'json', '--verbose'], {
      env: { http_proxy: `http://${PROXY_CREDENTIALS}@${proxy.host}`, MKT_BASE_URL: service.url, MKT_API_KEY: KEY },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('[]\n');
    expect(service.requests).toHaveLength(1);
    const target = `${service.url}${service.requests[0]?.url}`;
    expect(target).toMatch(/\/api\/v1\/fee-schedule-results\?/);
    expect(run.stderr.split('\n').slice(0, 2)).toEqual([
      `via proxy http://***@${proxy.host} from http_proxy`,
      `→ GET ${target} [x-service-api-access-key: ***]`,
    ]);
    for (const secret of [KEY, PROXY_PASSWORD, encodeURIComponent(PROXY_PASSWORD), PROXY_USER]) expect(run.stderr).not.toContain(secret);
    expect(proxy.passed).toEqual([
      {
        method: 'GET',
        url: target,
        headers: expect.objectContaining({ host: new URL(service.url).host, 'proxy-authorization': PROXY_AUTHORIZATION, 'x-service-api-access-key': KEY }),
      },
    ]);
  });

  it('HTTP_PROXY in upper case is not read for http, as curl does not (a CGI script gets it from a request header): ALL_PROXY applies', async () => {
    const service = await startServer((_request, response) => sendJson(response, 200, emptyResultsPage()));
    const ignored = await startProxy();
    const proxy = await startProxy();
    const run = await runInProcess(['results', '--format', 'json'], {
      env: { HTTP_PROXY: ignored.url, ALL_PROXY: proxy.url, MKT_BASE_URL: service.url, MKT_API_KEY: KEY },
    });
    expect(run).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(ignored.passed).toEqual([]);
    expect(proxy.passed.map(({ method }) => method)).toEqual(['GET']);
  });
});

describe('a plain-http service through a proxy not on loopback: refused before anything is sent (issue 35, point 1)', () => {
  it('http_proxy=http://192.0.2.2:3128 with a loopback http base URL: exit 2, the proxy named, nothing sent', async () => {
    const service = await startServer((_request, response) => sendJson(response, 200, emptyResultsPage()));
    // 192.0.2.2 is never contacted: mkt refuses before opening any connection.
    const run = await runInProcess(['results', '--format', 'json'], { env: { http_proxy: 'http://192.0.2.2:3128', MKT_BASE_URL: service.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mkt: refusing to send the API key over plain http through proxy 192.0.2.2:3128 (from http_proxy)\n'
        + 'Use an https:// base URL, add 127.0.0.1 to no_proxy, or add --insecure if you really mean it.\n',
    });
    expect(service.requests).toEqual([]);
  });

  it('0.0.0.0, which reaches this machine but is not loopback, is refused as well; with --insecure the key goes through it', async () => {
    const service = await startServer((_request, response) => sendJson(response, 200, emptyResultsPage()));
    const proxy = await startProxy();
    const viaAnyAddress = proxy.url.replace('127.0.0.1', '0.0.0.0');
    const env = { ALL_PROXY: viaAnyAddress, MKT_BASE_URL: service.url, MKT_API_KEY: KEY };
    const refused = await runInProcess(['results', '--format', 'json'], { env });
    expect(refused).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^mkt: refusing to send the API key over plain http through proxy 0\.0\.0\.0:\d+ \(from ALL_PROXY\)\n/) });
    expect(proxy.passed).toEqual([]);
    expect(service.requests).toEqual([]);
    const insecure = await runInProcess(['results', '--format', 'json', '--insecure'], { env });
    expect(insecure).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(proxy.passed.map(({ method, headers }) => [method, headers['x-service-api-access-key']])).toEqual([['GET', KEY]]);
  });
});

describe('no proxy', () => {
  it.each([
    ['the host', '127.0.0.1'],
    ['a CIDR range', 'example.com, 127.0.0.0/8'],
    ['the host and its port', 'localhost,127.0.0.1:PORT'],
    ['*', '*'],
  ])('NO_PROXY listing %s goes straight to the service; a list without it does not', async (_what, noProxy) => {
    const service = await startServer((_request, response) => sendJson(response, 200, emptyResultsPage()));
    const proxy = await startProxy();
    const results = (list: string) =>
      runInProcess(['results', '--format', 'json'], { env: { http_proxy: proxy.url, NO_PROXY: list, MKT_BASE_URL: service.url, MKT_API_KEY: KEY } });
    // Loopback is not special, as for curl: a list that does not name it leaves it to the proxy.
    expect(await results('example.com,127.0.0.2,127.0.0.1:1')).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(proxy.passed.map(({ method }) => method)).toEqual(['GET']);
    expect(await results(noProxy.replace('PORT', new URL(service.url).port))).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(proxy.passed).toHaveLength(1);
    expect(service.requests).toHaveLength(2);
  });

  it('--sandbox never goes through a proxy, since its server is in this process; a base URL on loopback does', async () => {
    const proxy = await startProxy();
    const env = { http_proxy: proxy.url, HTTPS_PROXY: proxy.url, ALL_PROXY: proxy.url };
    const sandbox = await runInProcess(['--sandbox', 'order-types', 'IEX', '--format', 'json'], { env });
    expect(sandbox.code, sandbox.stderr).toBe(0);
    expect(sandbox.stderr).toBe('');
    expect(JSON.parse(sandbox.stdout)).toMatchObject({ exchange: 'IEX' });
    expect(proxy.passed).toEqual([]);
    const service = await startServer((_request, response) => sendJson(response, 200, emptyResultsPage()));
    const loopback = await runInProcess(['results', '--format', 'json'], { env: { ...env, MKT_BASE_URL: service.url, MKT_API_KEY: KEY } });
    expect(loopback).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(proxy.passed.map(({ method }) => method)).toEqual(['GET']);
  });
});

describe('a proxy URL mkt cannot use: usage error, exit 2, nothing sent, no password shown', () => {
  it.each([
    ['HTTPS_PROXY', `http://user:${PROXY_PASSWORD}@[proxy`, 'mkt: HTTPS_PROXY is not a proxy URL'],
    ['HTTPS_PROXY', `socks5://user:${PROXY_PASSWORD}@proxy:1080`, 'mkt: HTTPS_PROXY: mkt supports http:// proxies only, not socks5://'],
    ['ALL_PROXY', `https://user:${PROXY_PASSWORD}@proxy:3128`, 'mkt: ALL_PROXY: mkt supports http:// proxies only, not https://'],
  ])('%s=%s', async (variable, value, message) => {
    const run = await runInProcess(['fees', 'NYSE'], { env: { [variable]: value, MKT_BASE_URL: 'https://data.example.com', MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `${message}\nSet ${variable} to http://[USER:PASSWORD@]HOST[:PORT], e.g. http://proxy.example.com:3128.\n`,
    });
  });
});
