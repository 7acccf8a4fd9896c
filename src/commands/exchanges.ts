import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { addExamples } from './examples.js';

export function registerExchangesCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('exchanges')
    .summary('The exchanges your key reaches')
    .description(
      'List the exchanges your key reaches: identifiers, and names, fee types and record counts where the service gives them. '
        + 'Kept per profile for completion and did-you-mean; read again with --refresh.',
    )
    .option('--refresh', 'ask the service again instead of using the kept list')
    .action(async (flags: { refresh?: boolean }, self: Command) => {
      const { runExchanges } = await import('./exchanges-run.js');
      await runExchanges(contextFor(self), { refresh: flags.refresh === true });
    });
  addExamples(command, [
    { comment: 'An analyst: which identifiers to type', command: 'mkt exchanges' },
    { comment: 'A script: the identifiers, one per line, fresh from the service', command: "mkt exchanges --refresh -f json | jq -r '.[].exchange'" },
  ]);
}
