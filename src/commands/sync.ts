import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { addExamples } from './examples.js';
import { addIncludeOptions, type IncludeFlags, includesOf } from './include-options.js';
import { addFilterOptions, type FilterFlags, toFilterQuery } from './results.js';

interface SyncFlags extends FilterFlags, IncludeFlags {
  mirror?: string;
  fullRefresh?: boolean;
  exitCode?: boolean;
}

export function registerSyncCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('sync')
    .summary('Bring the local mirror up to date')
    .description(
      'Bring the local mirror up to date: a DuckDB file holding what the service answers for these filters, '
        + 'fetching only what is new. One mirror per profile unless --mirror names another (docs/mirror.md).',
    );
  addFilterOptions(command);
  addIncludeOptions(command);
  command
    .optionsGroup('Mirror:')
    .option('--mirror <path>', 'the mirror file (default: <profile>.duckdb in the OS data directory; MKT_MIRROR)')
    .option('--full-refresh', 'walk every page and rebuild the mirror, for other filters or another service too')
    .option('--exit-code', 'exit 10 when the sync changed the mirror, 0 when nothing changed')
    .action(async (flags: SyncFlags, self: Command) => {
      const context = contextFor(self);
      const [{ runSync }, { inServiceSpelling }] = await Promise.all([import('./sync-run.js'), import('./service-spelling.js')]);
      // The citations are part of what the mirror holds: each sync of it asks for the same ones (docs/mirror.md).
      const filters = { ...(await inServiceSpelling(context, toFilterQuery(flags))), ...includesOf(flags) };
      await runSync(context, { filters, mirror: flags.mirror, fullRefresh: flags.fullRefresh === true, exitCode: flags.exitCode === true });
    });
  addExamples(command, [
    { comment: 'An analyst: a local copy of every result, then SQL over it', command: 'mkt sync && mkt sql "SELECT exchange_name, count(*) FROM results GROUP BY 1"' },
    { comment: 'In cron: keep the mirror current, and alert when something changed', command: 'mkt sync --quiet --exit-code; [ $? -eq 10 ] && notify "fees changed"' },
    {
      comment: 'A script: each fee schedule with a new or withdrawn version, to diff',
      command: `mkt sync --quiet -f json | jq -r '.changed_groups[] | "\\(.exchange_name) \\(.fee_type)"'`,
    },
  ]);
}
