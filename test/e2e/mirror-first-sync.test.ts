import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort, useRecordingServers } from '../helpers/recording-server.js';
import { useRelays } from '../helpers/relay.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 36, point 5: a mirror exists only once it holds a first sync.
const sandbox = useSandbox({ records: 300, seed: 36 });
const startServer = useRecordingServers();
const relay = useRelays();

const newMirror = () => join(tempDir('mkt-mirror-'), 'm.duckdb');
const unfinished = (mirror: string) => `mkt: the mirror ${mirror} has not finished its first sync\nRun \`mkt sync\` to finish it.\n`;
/** The service's answer to a key it does not know (docs/sandbox.md). */
const NOT_AUTHORIZED = '{"message":"Not authorized: the API key is invalid or missing.","data":[],"query_time":null,"success":false,"disable_jsonable_encoder":false,"status_code":401}';

/** A relay to the sandbox that answers 401 while `refuse` says so of a request's URL. */
function gate(refuse: (url: URL) => boolean) {
  const target = sandbox.current.url;
  return relay(target, { answer: (request) => (refuse(new URL(request.url, target)) ? { status: 401, text: NOT_AUTHORIZED } : undefined) });
}

describe('a first sync that fails', () => {
  it('leaves no mirror file and no log, whatever it failed on', async () => {
    const html = await startServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end('<html><body><h1>404 Not Found</h1></body></html>');
    });
    const refused = await closedPort();
    const { url, keys } = sandbox.current;
    // `unsendable`: the settings let no request go, and the mirror's directory is not even made.
    const cases: { env: Record<string, string>; args?: string[]; code: number; stderr: string; unsendable?: true }[] = [
      { env: {}, code: 2, stderr: 'mkt: no base URL for profile "default"', unsendable: true },
      { env: {}, args: ['--profile', 'nope'], code: 2, stderr: 'mkt: no profile "nope" is stored (--profile)', unsendable: true },
      { env: { MKT_BASE_URL: url }, code: 3, stderr: 'mkt: no API key for profile "default"', unsendable: true },
      { env: { MKT_BASE_URL: html.url, MKT_API_KEY: keys.api_key }, code: 1, stderr: `mkt: this does not look like the service at ${html.url}; check --base-url (mkt adds /api/v1)` },
      { env: { MKT_BASE_URL: refused, MKT_API_KEY: keys.api_key }, args: ['--retries', '0'], code: 1, stderr: `mkt: gave up after 1 try: connection refused by ${new URL(refused).host}` },
      { env: { MKT_BASE_URL: url, MKT_API_KEY: 'bogus-key-0123456789' }, code: 3, stderr: 'mkt: the service rejected the API key (401)' },
    ];
    for (const { env, args = [], code, stderr, unsendable } of cases) {
      const mirror = join(tempDir('mkt-mirror-'), 'new', 'm.duckdb');
      const run = await runInProcess(['sync', ...args], { env: { ...env, MKT_MIRROR: mirror } });
      expect({ code: run.code, stderr: run.stderr.split('\n')[0] }).toEqual({ code, stderr });
      expect({ mirror: existsSync(mirror), log: existsSync(`${mirror}.wal`) }).toEqual({ mirror: false, log: false });
      if (unsendable) expect(existsSync(dirname(mirror))).toBe(false);
      expect((await runInProcess(['sql', 'SELECT count(*) FROM results'], { env: { MKT_MIRROR: mirror } })).stderr).toMatch(/^mkt: no mirror at /);
    }
  });

  it('that committed pages keeps them, answers no query until a sync finishes it, and the next sync carries on', async () => {
    let failing = true;
    // The walk's third page, oldest first, is refused: the two before it are committed as the sync stops.
    const server = await gate((url) => failing && url.searchParams.get('order_dir') === 'asc' && Number(url.searchParams.get('page_number')) >= 2);
    const mirror = newMirror();
    const env = { MKT_BASE_URL: server.url, MKT_API_KEY: sandbox.current.keys.api_key, MKT_MIRROR: mirror };
    const failed = await runInProcess(['sync'], { env });
    expect(failed.code).toBe(3);
    expect(existsSync(mirror)).toBe(true);

    const queries = [['sql', 'SELECT count(*) FROM results'], ['sql', 'SELECT 1', '-f', 'json'], ['results', '--offline']];
    for (const query of queries) {
      expect(await runInProcess(query, { env })).toMatchObject({ code: 1, stdout: '', stderr: unfinished(mirror) });
    }

    failing = false;
    const finished = await runInProcess(['sync', '-f', 'json'], { env });
    expect(finished.code).toBe(0);
    expect(JSON.parse(finished.stdout)).toMatchObject({ total_records: 300, full_walk: true });
    const counted = await runInProcess(['sql', 'SELECT count(*) AS n FROM results', '-f', 'json'], { env });
    expect(counted).toMatchObject({ code: 0, stdout: '[\n  {"n":300}\n]\n', stderr: '' });
  });
});
