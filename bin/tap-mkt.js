#!/usr/bin/env node
'use strict';
// `tap-mkt` is `mkt tap`, under the name Singer tools give a tap: Meltano runs an extractor's
// executable with the Singer flags after it, and no words of its own (docs/pipelines.md).
process.argv.splice(2, 0, 'tap');
require('./mkt.js');
