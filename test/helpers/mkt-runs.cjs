'use strict';
// `node mkt-runs.cjs <argument lists as JSON>`: mkt as bin/mkt.js runs it (dist/bundle/mkt.cjs),
// once for each list, in turn, in this one process, with its stdin and stdout; each run's stderr
// is kept, and [{ code, stderr }, …] is written to stderr at the end. For what any fresh Node
// process shows the same way (the descriptors Node opens for itself), asked of many runs.
const { Writable } = require('node:stream');
const { run, processDeps } = require('../../dist/bundle/mkt.cjs');

(async () => {
  const outcomes = [];
  for (const args of JSON.parse(process.argv[2])) {
    let stderr = '';
    const kept = new Writable({
      write(chunk, _encoding, done) {
        stderr += chunk;
        done();
      },
    });
    // Object.assign keeps processDeps' stdin a getter, which opens nothing until it is read.
    const code = await run(args, Object.assign(processDeps(), { stderr: kept }));
    outcomes.push({ code, stderr });
  }
  process.stderr.write(JSON.stringify(outcomes));
})();
