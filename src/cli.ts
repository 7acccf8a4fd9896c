/**
 * What bin/mkt.js runs. The build bundles it, with all it imports, mkt's modules and its
 * dependencies, into one CommonJS file, dist/bundle/mkt.cjs (scripts/bundle.js).
 */
export { run } from './main.js';
export { processDeps } from './core/deps.js';
export { cannotWrite } from './output/output-path.js';
