import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export type Responder = (request: RecordedRequest, response: ServerResponse) => void;

/** An empty results envelope: what a server with no matching records answers. */
export const emptyResultsPage = (pageSize = 20, page = 0) => ({
  success: true,
  message: 'ok',
  data: [],
  total_records: 0,
  page_size: pageSize,
  total_pages: 0,
  current_page: page,
  query_time: 0.001,
  disable_jsonable_encoder: false,
});

/** A JSON body written exactly as `text` (any layout, escapes or byte order mark a test needs). */
export function sendText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendText(response, status, JSON.stringify(body), headers);
}

/**
 * A server on `host` (a loopback address, 127.0.0.1 by default), port 0, that records every
 * request and answers with `respond` (by default an empty results page). For asserting exactly
 * what the client sends.
 */
export async function startRecordingServer(respond: Responder = (_request, response) => sendJson(response, 200, emptyResultsPage()), host = '127.0.0.1') {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const request = { method: incoming.method ?? '', url: incoming.url ?? '', headers: incoming.headers };
    requests.push(request);
    incoming.resume();
    incoming.on('end', () => respond(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port with nothing listening on it: any request there fails to connect. */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Starts recording servers for a test file's tests, each closed once its test is done. */
export function useRecordingServers(): (respond: Responder, host?: string) => ReturnType<typeof startRecordingServer> {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (respond, host) => {
    const server = await startRecordingServer(respond, host);
    servers.push(server);
    return server;
  };
}
