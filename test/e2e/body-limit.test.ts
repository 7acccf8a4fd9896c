import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { useRecordingServers } from '../helpers/recording-server.js';

// Issue 14, point 10: a body over 32 MiB fails at once, without a retry, and memory stays bounded.
const KEY = 'body-limit-test-key-4242';
const MIB = 1024 * 1024;
const startServer = useRecordingServers();

/** Zeros, as fast as the client reads them, until it hangs up. */
function sendForever(response: ServerResponse): void {
  const zeros = Buffer.alloc(MIB);
  const write = (): void => {
    while (!response.destroyed && response.write(zeros));
  };
  response.on('drain', write);
  write();
}

describe('a response body over 32 MiB', () => {
  it.each([
    ['declares 40 MiB in Content-Length', (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': 40 * MIB });
      response.write('{"data": [');
    }],
    ['never ends (chunked)', (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      sendForever(response);
    }],
  ])('%s: one line naming the limit, exit 1, one request only', async (_what, respond) => {
    const server = await startServer((_request, response) => respond(response));
    const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: server.url, MKT_API_KEY: KEY } });
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `mkt: ${new URL(server.url).host} sent a response over the 32 MiB limit\n` });
    expect(server.requests).toHaveLength(1);
  });
});
