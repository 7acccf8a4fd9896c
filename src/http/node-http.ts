import type * as Http from 'node:http';
import { createRequire } from 'node:module';

/**
 * node:http, loaded with require rather than `import`. On Node 22 and 24, importing node:http as
 * an ES module builds its namespace from every export, and so reads its lazy `WebSocket` getter,
 * which loads the undici that Node bundles: 40-58 ms of every command that reaches the service,
 * against 8-10 ms on Node 20 (nodejs/node#59686; docs/performance.md). Types come from
 * `import type`, which costs nothing at run time.
 */
export const http = createRequire(import.meta.url)('node:http') as typeof Http;
