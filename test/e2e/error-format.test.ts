import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type InProcessOptions, type InProcessRun, runInProcess } from '../helpers/run-in-process.js';
import { sendJson, sendText, type Responder, useRecordingServers } from '../helpers/recording-server.js';
import { useSandbox } from '../helpers/sandbox.js';
import { spawnMkt, tempConfigDir } from '../helpers/run-mkt.js';
import { useRelays } from '../helpers/relay.js';

// Issue 40, point 2: with --error-format json (or MKT_ERROR_FORMAT=json), a failure is one JSON
// object on stderr and nothing else.
const sandbox = useSandbox({ records: 30 });
const startServer = useRecordingServers();
const startRelayTo = useRelays();
const KEY = 'test-key-0123456789abcdef';

/** The one JSON object a failing run leaves on stderr: exactly one line, and nothing on stdout. */
function failureOf(run: InProcessRun): unknown {
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n')).toBe(true);
  expect(run.stderr.slice(0, -1)).not.toContain('\n');
  const { error } = JSON.parse(run.stderr) as { error: { exit_code: number } };
  expect(error.exit_code).toBe(run.code);
  return error;
}

const json = (args: string[], options: InProcessOptions = {}) => runInProcess(['--error-format', 'json', ...args], options);
const sandboxEnv = (key = sandbox.current.keys.api_key) => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: key });

describe('mistakes on the command line, before any command runs', () => {
  it.each([
    [['results', '--exchange-nam', 'NYSE'], "unknown option '--exchange-nam'; did you mean --exchange-name?", 'Run `mkt results --help` for usage.'],
    [['resluts'], "unknown command 'resluts'; did you mean results?", 'Run `mkt --help` for usage.'],
    [['fees'], "missing required argument 'exchange'", 'Run `mkt fees --help` for usage.'],
    [['fees', 'NYSE', 'CBOE'], "too many arguments for 'fees'. Expected 1 argument but got 2.", 'Run `mkt fees --help` for usage.'],
    [['results', '--page-size'], "option '--page-size <n>' argument missing", 'Run `mkt results --help` for usage.'],
    [[], 'mkt needs a command', 'Run `mkt --help` for usage.'],
    [['auth'], 'mkt auth needs a command', 'Run `mkt auth --help` for usage.'],
    [['results', '-f', 'jsn'], '--format: unknown value "jsn"; did you mean json?', 'Allowed values: table, json, ndjson, csv, parquet.'],
    [['completion', 'tcsh'], '<shell>: unknown value "tcsh"; did you mean bash?', 'Allowed values: bash, zsh, fish.'],
    [['results', '--page-size', '0'], '--page-size: "0" is not a whole number from 1 to 100', null],
  ])('mkt %j is one usage object, exit 2', async (args, message, hint) => {
    const run = await json(args);
    expect(run.code).toBe(2);
    expect(failureOf(run)).toEqual({ code: 'usage', message, hint, exit_code: 2, retryable: false });
  });

  it('leaves the help and the version as they are: stdout, exit 0', async () => {
    const text = await runInProcess(['fees', '--help']);
    expect(await json(['fees', '--help'])).toEqual({ ...text, stdout: text.stdout });
    expect(await json(['--version'])).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('the flag and the variable', () => {
  const missing = { code: 'usage', message: "missing required argument 'exchange'", hint: 'Run `mkt fees --help` for usage.', exit_code: 2, retryable: false };
  const missingText = "mkt: missing required argument 'exchange'\nRun `mkt fees --help` for usage.\n";

  it('MKT_ERROR_FORMAT=json does what the flag does; --error-format=json and any case too', async () => {
    expect(failureOf(await runInProcess(['fees'], { env: { MKT_ERROR_FORMAT: 'json' } }))).toEqual(missing);
    expect(failureOf(await runInProcess(['fees', '--error-format=JSON']))).toEqual(missing);
  });

  it('the flag outranks the variable, either way; an empty variable is no variable', async () => {
    expect(await runInProcess(['fees', '--error-format', 'text'], { env: { MKT_ERROR_FORMAT: 'json' } })).toMatchObject({ code: 2, stderr: missingText });
    expect(failureOf(await runInProcess(['fees', '--error-format', 'json'], { env: { MKT_ERROR_FORMAT: 'text' } }))).toEqual(missing);
    expect(await runInProcess(['fees'], { env: { MKT_ERROR_FORMAT: '' } })).toMatchObject({ code: 2, stderr: missingText });
  });

  it('a bad value of either is a usage error in text, since the format is unknown', async () => {
    expect(await runInProcess(['fees', 'NYSE', '--error-format', 'yaml'], { env: { MKT_ERROR_FORMAT: 'json' } })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mkt: --error-format: unknown value "yaml"\nAllowed values: text, json.\n',
    });
    expect(await runInProcess(['fees', 'NYSE'], { env: { MKT_ERROR_FORMAT: 'jsn' } })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mkt: MKT_ERROR_FORMAT: unknown value "jsn"; did you mean json?\nAllowed values: text, json.\n',
    });
  });

  it('text stays the default', async () => {
    expect(await runInProcess(['fees'])).toMatchObject({ code: 2, stderr: missingText });
  });
});

describe('what the service answers', () => {
  it.each([
    ['a key it rejects (401)', ['fees', 'NYSE'], 'wrong-key-0123456789', { code: 'auth', exit_code: 3, http_status: 401, retryable: false }],
    ['an exchange the key is not licensed for (403)', ['fees', 'NYSE_ARCA'], 'scoped', { code: 'forbidden', exit_code: 3, http_status: 403, retryable: false }],
    ['an exchange it does not know (404)', ['rules', 'NYS'], undefined, { code: 'not_found', exit_code: 4, http_status: 404, retryable: false }],
  ])('%s', async (_what, args, key, expected) => {
    const apiKey = key === 'scoped' ? sandbox.current.keys.scoped_api_key : key;
    const run = await json(args, { env: sandboxEnv(apiKey) });
    expect(failureOf(run)).toMatchObject(expected);
  });

  it.each([
    ['429 on every try', 429, { code: 'rate_limited', exit_code: 1, http_status: 429, retryable: true }],
    ['503 on every try', 503, { code: 'server', exit_code: 1, http_status: 503, retryable: true }],
  ])('%s, retries spent', async (_what, status, expected) => {
    const server = await startServer((_request, response) => sendJson(response, status, { detail: 'busy' }, { 'retry-after': '0' }));
    const run = await json(['results', '--retries', '1'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY }, maxRetryDelayMs: 0 });
    expect(failureOf(run)).toMatchObject(expected);
    expect(server.requests).toHaveLength(2);
  });

  it('a refused connection: network, no http_status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await json(['fees', 'NYSE', '--retries', '0'], { env: { MKT_BASE_URL: `http://127.0.0.1:${port}`, MKT_API_KEY: KEY } });
    const error = failureOf(run);
    expect(error).toMatchObject({ code: 'network', exit_code: 1, retryable: true });
    expect(error).not.toHaveProperty('http_status');
  });

  it.each([
    ['a 200 whose body is not JSON', ((_request, response) => sendText(response, 200, '{"exchange": "NY')) as Responder],
    ['an HTML 404 from a base URL that is not the service', ((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body>Not Found</body></html>');
    }) as Responder],
  ])('%s: malformed_answer', async (_what, respond) => {
    const server = await startServer(respond);
    const run = await json(['fees', 'NYSE', '--retries', '0'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(failureOf(run)).toMatchObject({ code: 'malformed_answer', exit_code: 1, retryable: false });
  });

  it('never shows the key, even where the server repeats it', async () => {
    const server = await startServer((_request, response) => sendJson(response, 500, { detail: `bad key ${KEY}` }));
    const run = await json(['fees', 'NYSE', '--retries', '0'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(failureOf(run)).toMatchObject({ code: 'server', http_status: 500, retryable: true });
    expect(run.stderr).not.toContain(KEY);
  });
});

describe('nothing before the object', () => {
  /** A config directory whose config.json is cut short: --sandbox warns of it and goes on. */
  const brokenConfig = () => tempConfigDir({ 'config.json': '{"profiles": ' });

  it('a warning given before the failure is dropped', async () => {
    const env = { MKT_CONFIG_DIR: brokenConfig() };
    expect((await runInProcess(['--sandbox', 'fees', 'NYS'], { env })).stderr).toContain('warning: ');
    const run = await json(['--sandbox', 'fees', 'NYS'], { env });
    expect(failureOf(run)).toMatchObject({ code: 'not_found', http_status: 404 });
  });

  it('a run that succeeds keeps its stdout, and writes its warnings at the end', async () => {
    const env = { MKT_CONFIG_DIR: brokenConfig() };
    const text = await runInProcess(['--sandbox', 'fees', 'NYSE', '-f', 'json'], { env });
    expect(text.code).toBe(0);
    expect(await json(['--sandbox', 'fees', 'NYSE', '-f', 'json'], { env })).toEqual(text);
  });

  it('no progress at a terminal: a walk that fails on its third page leaves the object alone', async () => {
    const relay = await startRelayTo(sandbox.current.url, {
      answer: (request) => (new URL(request.url, 'http://relay').searchParams.get('page_number') === '3' ? { status: 500, text: '{"detail": "boom"}' } : undefined),
    });
    const options = { env: { MKT_BASE_URL: relay.url, MKT_API_KEY: sandbox.current.keys.api_key }, stderr: { isTTY: true, columns: 80 } };
    const args = ['results', '--all', '--page-size', '5', '-f', 'ndjson', '-o', join(tempConfigDir(), 'out.ndjson'), '--retries', '0'];
    expect((await runInProcess(args, options)).stderr).toContain('page 2');
    expect(failureOf(await json(args, options))).toMatchObject({ code: 'server', http_status: 500, retryable: true });
  });

  it('--verbose keeps its request log, written as it comes; the object is the last line', async () => {
    const run = await json(['rules', 'NYS', '--verbose'], { env: sandboxEnv() });
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^→ GET /);
    expect(lines.filter((line) => line.includes('"error"'))).toEqual([lines.at(-1)]);
    expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('Ctrl-C', () => {
  it('during a request is the interrupted object, exit 130', async () => {
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    // Never answers: the request is under way when the signal comes.
    const server = await startServer(() => arrived());
    const mkt = spawnMkt(['--error-format', 'json', 'fees', 'NYSE'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    await requestArrived;
    mkt.child.kill('SIGINT');
    const run = await mkt.result;
    expect(run).toMatchObject({ code: 130, stdout: '' });
    expect(JSON.parse(run.stderr)).toEqual({ error: { code: 'interrupted', message: 'interrupted by SIGINT', hint: null, exit_code: 130, retryable: true } });
    expect(run.stderr.trimEnd()).not.toContain('\n');
  });
});

// Issue 40, point 4, as a person sees it.
describe('colour variables', () => {
  it('CLICOLOR_FORCE=1 colours an error on a pipe; CLICOLOR=0 leaves it plain at a terminal', async () => {
    const args = ['results', '--page-size', '0'];
    expect((await runInProcess(args, { env: { CLICOLOR_FORCE: '1' } })).stderr).toMatch(/^\u001b\[31mmkt:\u001b\[0m --page-size/);
    expect((await runInProcess(args, { env: { CLICOLOR: '0' }, stderr: { isTTY: true, columns: 80 } })).stderr).toMatch(/^mkt: --page-size/);
    expect((await runInProcess(args, { stderr: { isTTY: true, columns: 80 } })).stderr).toMatch(/^\u001b\[31mmkt:/);
  });
});
