// What bin/mkt.js loads: the bundle's one entry (package.json, "bundle").
export { run } from './main.js';
export { processDeps } from './deps.js';
