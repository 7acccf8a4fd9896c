import { describeClosedOutputRuns } from '../helpers/closed-output.js';

// Each (format, target) pair once, --all and --limit both among them, for one format of each way
// of writing: csv streams its records through ChunkSink as ndjson and json do, table writes them
// all at the end, parquet in binary row groups. A mirror of 700 records still takes three reads
// of pages ahead of the output, for --all as for --limit (each read four times the one before).
// The 100 runs of all five formats that issue 35 asks for (about one in seven hung or crashed
// before its fix) are test/stress/'s, which CI runs too.
describeClosedOutputRuns(6, { formats: ['csv', 'table', 'parquet'], records: 700 });
