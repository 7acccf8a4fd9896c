// What node:http2 is in mkt's bundle (package.json, "bundle": --alias:node:http2). undici loads
// node:http2 as it loads, for HTTP/2, which mkt never asks for (allowH2 stays off); Node's
// http2 brings tls and crypto with it, 12 ms of every call (docs/performance.md). undici
// catches this error and goes on without HTTP/2, as it does on a Node built without it.
throw new Error('mkt does not use HTTP/2');
