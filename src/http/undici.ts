// undici's Agent and its request() API, loaded from undici's own files rather than its index.
// The index also loads fetch, WebSocket, the cache, cookies and mocks, and makes Node load its
// bundled copy of undici too: about 50 ms of every call's start-up that mkt never uses
// (docs/performance.md). undici has no "exports" map, so these paths are its published files;
// the version is pinned with ~ in package.json, and every e2e test goes through them.
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import requestFunction from 'undici/lib/api/api-request.js';

// undici parses HTTP with llhttp compiled to WebAssembly. While it parses even one response,
// V8 starts optimising that parser on a background thread, and Node waits for the job before
// it exits: 60–75 ms added to every one-request command. The baseline compiler alone parses a
// 300-page walk no slower (docs/performance.md). Set before undici compiles the parser, at
// its first connection.
setFlagsFromString('--liftoff-only');

export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;

/** `dispatcher.request(options)`, as undici's index attaches it to every dispatcher. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestFunction.call(dispatcher, options);
}
