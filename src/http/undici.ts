// undici's Agent, loaded from undici's own file rather than its index.
// The index also loads fetch, WebSocket, the cache, cookies and mocks, and makes Node load its
// bundled copy of undici too: about 50 ms of every call's start-up that mkt never uses
// (docs/performance.md). undici has no "exports" map, so this path is one of its published files;
// the version is pinned with ~ in package.json, and every e2e test goes through it.
import { setFlagsFromString } from 'node:v8';
import AgentClass from 'undici/lib/dispatcher/agent.js';

// undici parses HTTP with llhttp compiled to WebAssembly. While it parses even one response,
// V8 starts optimising that parser on a background thread, and Node waits for the job before
// it exits: 60–75 ms added to every one-request command. The baseline compiler alone parses a
// 300-page walk no slower (docs/performance.md). Set before undici compiles the parser, at
// its first connection.
setFlagsFromString('--liftoff-only');

export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;
