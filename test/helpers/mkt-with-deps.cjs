'use strict';
// `node mkt-with-deps.cjs <deps as JSON> args…`: mkt as bin/mkt.js runs it, with some of the
// Deps seams set (test/helpers/run-mkt.ts), for what only a process shows: a signal, a kill.
const { run, processDeps } = require('../../dist/bundle/mkt.cjs');

const [seams, ...args] = process.argv.slice(2);
run(args, Object.assign(processDeps(), JSON.parse(seams))).then((code) => {
  process.exitCode = code;
});
