import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { sendJson, sendText, type Responder, useRecordingServers } from '../helpers/recording-server.js';

// Issue 14, points 5, 6 and 13: what a hostile server says is printed without the key, on one line.
const KEY = 'secret-key-0123456789abcdef';
const startServer = useRecordingServers();

async function serve(respond: Responder) {
  const server = await startServer(respond);
  return { ...server, host: new URL(server.url).host, env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } };
}

describe('the key never comes back out of server text (point 5)', () => {
  it.each([400, 422])('removes the key from the detail of a %i', async (status) => {
    const server = await serve((_request, response) => sendJson(response, status, { detail: `bad key ${KEY}` }));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: `mkt: the service rejected the request (${status}): bad key ***\n` });
  });

  it('removes the key from the message of a 500 after the retries, and from the --verbose log', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 500, { message: `echo: x-service-api-access-key=${encodeURIComponent(KEY)} ${KEY}` }, {
        'retry-after': '0',
        'x-ratelimit-remaining': `99 ${KEY}`,
      }),
    );
    const run = await runInProcess(['results', '--retries', '1', '--verbose'], { env: server.env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain(KEY);
    expect(run.stderr).toContain('x-ratelimit-remaining: 99 ***');
    expect(run.stderr).toContain('  body: {"message":"echo: x-service-api-access-key=*** ***"}');
    expect(run.stderr).toContain(`mkt: gave up after 2 tries: 500 Internal Server Error from ${server.host}: echo: x-service-api-access-key=*** ***\n`);
  });

  it('removes the bearer key from the detail of an exchange endpoint', async () => {
    const server = await serve((_request, response) => sendJson(response, 500, { detail: `Authorization: Bearer ${KEY}` }));
    const run = await runInProcess(['fees', 'NYSE', '--retries', '0'], { env: server.env });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: gave up after 1 try: 500 Internal Server Error from ${server.host}: Authorization: Bearer ***\n`,
    });
    const verbose = await runInProcess(['fees', 'NYSE', '--retries', '0', '--verbose'], { env: server.env });
    expect(verbose.stderr).not.toContain(KEY);
    expect(verbose.stderr).toContain('  body: {"detail":"Authorization: Bearer ***"}\n');
  });
});

describe('control characters are made visible (point 6)', () => {
  it('prints a forged line and escape sequences as one visible line', async () => {
    const detail = 'bad\u001b[2J\u001b[Hvalue\r\nmkt: all good\u0007\u009b\u202e';
    const server = await serve((_request, response) => sendJson(response, 422, { detail }));
    const run = await runInProcess(['results'], { env: server.env });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mkt: the service rejected the request (422): bad\\x1b[2J\\x1b[Hvalue\\x0d\\x0amkt: all good\\x07\\x9b\\u202e\n',
    });
  });

  it('cleans the body and headers in the --verbose log', async () => {
    const server = await serve((_request, response) =>
      sendText(response, 503, '<html>\n\u001b]0;pwned\u0007</html>', { 'retry-after': '0', 'x-ratelimit-remaining': '5\u009b2J' }),
    );
    const run = await runInProcess(['results', '--retries', '0', '--verbose'], { env: server.env });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/[\u001b\u009b]/);
    // Node reads header bytes as Latin-1: the UTF-8 of U+009B arrives as "Â" and U+009B.
    expect(run.stderr).toContain('x-ratelimit-remaining: 5\u00c2\\x9b2J');
    expect(run.stderr).toContain('  body: <html>\\x0a\\x1b]0;pwned\\x07</html>\n');
  });
});

describe('a 5xx that outlives the retries says what the server said (point 13)', () => {
  it('ends the one line with the detail of the last answer', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 503, { detail: 'maintenance until 22:00 UTC\n' }, { 'retry-after': '0' }),
    );
    const run = await runInProcess(['rules', 'NYSE', '--retries', '2'], { env: server.env });
    expect(run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `mkt: gave up after 3 tries: 503 Service Unavailable from ${server.host}: maintenance until 22:00 UTC\\x0a\n`,
    });
    expect(server.requests).toHaveLength(3);
  });
});
