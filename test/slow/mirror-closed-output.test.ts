import { describeClosedOutputRuns } from '../helpers/closed-output.js';

// Issue 35: "A 100-run loop in a test shows no hang and no signal death". Five times each of the
// 20 ways (target, format, --all or --limit): a mirror closed under pages read ahead hung or
// crashed about one run in seven.
describeClosedOutputRuns(100);
