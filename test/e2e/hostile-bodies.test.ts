import { describe, expect, it } from 'vitest';
import { sendJson, sendText, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess } from '../helpers/run-in-process.js';

// Issue 35, point 7: a `null` body and deeply nested JSON are one-line "malformed answer" errors
// (exit 1), never "unexpected error".
const KEY = 'hostile-body-key-0123456789';
const startServer = useRecordingServers();

/** `[[[…]]]`, `depth` arrays deep. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

async function serveText(status: number, text: string) {
  const server = await startServer((_request, response) => sendText(response, status, text));
  return { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY }, host: new URL(server.url).host, requests: server.requests };
}

describe('a body that is not an object, from the exchange endpoints', () => {
  it.each([
    ['fees', ['fees', 'NYSE']],
    ['rules', ['rules', 'NYSE']],
    ['order-types', ['order-types', 'NYSE']],
    ['historical', ['historical', 'NYSE']],
  ])('%s answering null: one line, exit 1, in every format', async (_endpoint, argv) => {
    const { env, host } = await serveText(200, 'null');
    for (const format of ['json', 'csv', 'table']) {
      const run = await runInProcess([...argv, '--format', format], { env });
      expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${host} sent a malformed answer: the body is null, not an object\n` });
    }
  });

  it.each([
    ['a string', '"Fee schedule"', 'the body is a string, not an object'],
    ['a number', '42', 'the body is a number, not an object'],
    ['an array holding null', '[{"effective_date": "2024-01-01"}, null]', 'body[1] is null, not an object'],
    ['an array holding an array', '[[]]', 'body[0] is an array, not an object'],
  ])('%s: one line, exit 1', async (_what, text, problem) => {
    const { env, host } = await serveText(200, text);
    const run = await runInProcess(['fees', 'NYSE', '--format', 'csv'], { env });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${host} sent a malformed answer: ${problem}\n` });
  });

  it('an array of objects is still a list', async () => {
    const { env } = await serveText(200, '[{"effective_date": "2024-01-01"}, {"effective_date": "2025-01-01"}]');
    const run = await runInProcess(['historical', 'NYSE', '--format', 'csv'], { env });
    expect(run).toMatchObject({ code: 0, stdout: 'effective_date\r\n2024-01-01\r\n2025-01-01\r\n', stderr: '' });
  });
});

describe('JSON nested 100,000 deep', () => {
  const tooDeep = (host: string) => `mkt: ${host} sent a malformed answer: arrays and objects nest more than 64 levels deep\n`;

  it.each([
    ['fees', ['fees', 'NYSE', '--format', 'csv']],
    ['results --all', ['results', '--all', '--format', 'csv']],
    ['results, as an object', ['results', '--format', 'json']],
  ])('from %s: one line, exit 1', async (what, argv) => {
    const text = what.endsWith('object') ? `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}` : nestedArrays(100_000);
    const { env, host } = await serveText(200, text);
    // Default retries: a body nested this deep is not retried, so the message has no "gave up after".
    const run = await runInProcess(argv, { env });
    // What stdout holds before the first page (a CSV header) is the output's business.
    expect(run).toMatchObject({ code: 1, stderr: tooDeep(host) });
  });

  it('64 levels are read as they are', async () => {
    const { env } = await serveText(200, `{"fee_schedule": ${nestedArrays(63)}}`);
    const run = await runInProcess(['fees', 'NYSE', '--format', 'json'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ fee_schedule: JSON.parse(nestedArrays(63)) });
  });

  it('in an error body: the status is reported, the body left unread', async () => {
    const deep = nestedArrays(100_000);
    const server = await startServer((_request, response) => sendText(response, 422, `{"detail": [{"loc": ${deep}, "msg": ${deep}}]}`));
    const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({ code: 2, stdout: '', stderr: 'mkt: the service rejected the request (422)\n' });
  });
});

describe('a null results page is still the envelope check', () => {
  it('results: one line, exit 1', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, null));
    const run = await runInProcess(['results', '--format', 'csv'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`mkt: ${new URL(server.url).host} sent a malformed answer: the body is null, not an object\n`);
  });
});
