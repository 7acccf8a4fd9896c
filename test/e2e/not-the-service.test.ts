import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { sendJson, type Responder, useRecordingServers } from '../helpers/recording-server.js';
import { useSandbox } from '../helpers/sandbox.js';

// Issue 14, point 17: a 404 from a base URL that is not the service is exit 1 and says so;
// exit 4 stays for an exchange the service itself says it does not know.
const KEY = 'test-key-0123456789abcdef';
const sandbox = useSandbox({ records: 50, seed: 3 });
const startServer = useRecordingServers();

async function serve(respond: Responder) {
  const server = await startServer(respond);
  return server;
}

const htmlNotFound: Responder = (_request, response) => {
  response.writeHead(404, { 'content-type': 'text/html' });
  response.end('<html><body><h1>404 Not Found</h1></body></html>');
};

describe('a base URL that is not the service', () => {
  it('an HTML 404 on an exchange endpoint is exit 1, naming the base URL as given', async () => {
    const server = await serve(htmlNotFound);
    const base = `${server.url}/wrong`;
    const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: base, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        `mkt: this does not look like the service at ${base}; check --base-url (mkt adds /api/v1)\n`
        + 'It answered 404 to GET /wrong/api/v1/exchanges/NYSE/fees.\n',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a generic JSON 404 that names no exchange is exit 1', async () => {
    const server = await serve((_request, response) => sendJson(response, 404, { detail: 'Not Found' }));
    const run = await runInProcess(['rules', 'N'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mkt: this does not look like the service at ${server.url}; check --base-url (mkt adds /api/v1)\n`
        + 'It answered 404 to GET /api/v1/exchanges/N/rules.\n',
    );
  });

  it('a 404 on the results endpoint is always exit 1, whatever its body says', async () => {
    const server = await serve((_request, response) => sendJson(response, 404, { detail: "Exchange 'NYSE' not found." }));
    const run = await runInProcess(['results', '--exchange-name', 'NYSE'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        `mkt: this does not look like the service at ${server.url}; check --base-url (mkt adds /api/v1)\n`
        + 'It answered 404 to GET /api/v1/fee-schedule-results.\n',
    });
  });

  it('a base URL that already ends in /api/v1 is named as given', async () => {
    const run = await runInProcess(['results'], {
      env: { MKT_BASE_URL: `${sandbox.current.url}/api/v1`, MKT_API_KEY: sandbox.current.keys.api_key },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`^mkt: this does not look like the service at ${sandbox.current.url.replace(/\./g, '\\.')}/api/v1; check --base-url \\(mkt adds /api/v1\\)\n`),
    );
  });
});

describe('an exchange the service does not know', () => {
  it('is still exit 4 against the sandbox', async () => {
    const run = await runInProcess(['fees', 'NOPE'], {
      env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key },
    });
    expect(run).toMatchObject({
      code: 4,
      stdout: '',
      stderr: 'mkt: unknown exchange NOPE (404)\nCheck the identifier: `mkt exchanges` lists the exchanges your key reaches.\n',
    });
  });
});
