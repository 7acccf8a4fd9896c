import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { addExamples } from './examples.js';

export function registerSqlCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('sql')
    .argument('<query>', 'DuckDB SQL: tables results, results_with_values and mkt_* (docs/mirror.md)')
    .summary('SQL over the mirror, read-only')
    .description('Run SQL over the mirror, read-only, and write the answer in any format: the mirror `mkt sync` keeps.')
    .option('--mirror <path>', 'the mirror (default: <profile>.duckdb in the OS data directory; MKT_MIRROR)')
    .action(async (query: string, flags: { mirror?: string }, self: Command) => {
      const { runSql } = await import('./sql-run.js');
      await runSql(contextFor(self), { query, mirror: flags.mirror });
    });
  addExamples(command, [
    {
      comment: 'An analyst: the line items of each venue in the mirror',
      command: 'mkt sql "SELECT exchange_name, fee_type, count(*) AS items FROM results GROUP BY ALL ORDER BY ALL"',
    },
    {
      comment: 'A pipeline: the mean maker rebate in USD per venue, as CSV',
      command: "mkt sql \"SELECT exchange_name, avg(fee_amount_value) FROM results_with_values WHERE fee_action = 'Make' AND fee_amount_unit = 'USD' GROUP BY 1\" -o rebates.csv",
    },
    {
      comment: 'A query in a file: after --, a leading SQL comment is no option',
      command: 'mkt sql -- "$(cat weekly.sql)"',
    },
  ]);
}
