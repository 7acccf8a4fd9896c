import { describeClosedOutputRuns } from '../helpers/closed-output.js';

// Each (format, target) pair once, --all and --limit both among them. The 100 runs that issue 35
// asks for (about one in seven hung or crashed before its fix) are test/stress/'s, which CI runs too.
describeClosedOutputRuns(10);
