import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_PARTITION_KEYS, PARTITION_KEYS, type PartitionKey } from '../mirror/export-keys.js';
import { addExamples } from './examples.js';
import { collectList, matchAllowed } from './flag-values.js';
import { addFilterOptions, type FilterFlags, toFilterQuery } from './results.js';

interface ExportFlags extends FilterFlags {
  partitionBy?: string[];
  overwrite?: boolean;
  mirror?: string;
}

/** The keys of `--partition-by`, each checked, in PARTITION_KEYS' order whatever order they were given in: a tree nests its folders one way. */
export function partitionKeysOf(given: readonly string[] | undefined): PartitionKey[] {
  if (given === undefined) return [...DEFAULT_PARTITION_KEYS];
  if (given.length === 0) {
    throw new UsageError('--partition-by needs at least one key', { hint: `Allowed keys: ${PARTITION_KEYS.join(', ')}.` });
  }
  const keys = new Set(given.map((key) => matchAllowed('--partition-by', key, PARTITION_KEYS)));
  return PARTITION_KEYS.filter((key) => keys.has(key));
}

/** The output options of the other data commands, which export would ignore: refused. */
const OUTPUT_FLAGS = { format: '--format', output: '--output', columns: '--columns', csvSafe: '--csv-safe' } as const;

export function registerExportCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('export')
    .argument('<dir>', 'the directory of the tree: new, empty, or an earlier export with --overwrite')
    .summary('A Hive-partitioned Parquet tree from the mirror')
    .description(
      "Write the mirror's records (after `mkt sync`) as a Hive-partitioned Parquet tree, exchange_name=…/fee_type=…/part-<uuid>.parquet, "
        + 'with the filters of `results --offline`, for Spark, Athena, DuckDB or polars (docs/pipelines.md).',
    );
  addFilterOptions(command);
  command
    .optionsGroup('Tree:')
    .option('--partition-by <keys>', `the folders' keys, a,b,…, nested in this order whatever the order given: ${PARTITION_KEYS.join(', ')} (default: ${DEFAULT_PARTITION_KEYS.join(',')})`, collectList)
    .option('--overwrite', 'replace an earlier export in <dir> whole: the new tree is written beside it, then renamed in')
    .option('--mirror <path>', 'the mirror (default: <profile>.duckdb in the OS data directory; MKT_MIRROR)')
    .action(async (directory: string, flags: ExportFlags, self: Command) => {
      const context = contextFor(self);
      const output = Object.entries(OUTPUT_FLAGS).find(([name]) => context.globals[name as keyof typeof OUTPUT_FLAGS] !== undefined);
      if (output) throw new UsageError(`export writes Parquet files into <dir>: leave out ${output[1]}`);
      const request = { directory, query: toFilterQuery(flags), keys: partitionKeysOf(flags.partitionBy), overwrite: flags.overwrite === true };
      const [{ inServiceSpelling }, { beginOpening }, { runExport }] = await Promise.all([
        import('./service-spelling.js'),
        import('./mirror-location.js'),
        import('./export-run.js'),
      ]);
      request.query = await inServiceSpelling(context, request.query, { offline: true });
      await runExport(context, request, await beginOpening(context, flags.mirror));
    });
  addExamples(command, [
    { comment: 'A data team: the whole mirror as a tree for Spark or Athena', command: 'mkt sync && mkt export /data/fees' },
    {
      comment: 'In cron: the current fee schedules by day, replacing last night\'s tree whole',
      command: 'mkt sync --quiet && mkt export /data/fees --latest-only --partition-by scraped_date,exchange_name --overwrite --quiet',
    },
    {
      comment: 'A pipeline: option fees by day, read back with DuckDB',
      command: "mkt export /tmp/options --fee-type Option --partition-by scraped_date && duckdb -c \"SELECT scraped_date, count(*) FROM read_parquet('/tmp/options/**/*.parquet', hive_partitioning = true) GROUP BY 1\"",
    },
  ]);
}
