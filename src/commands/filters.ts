import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { FIXED_VALUE_PARAMETERS, flagOf } from '../api/filters.js';
import { inOneBatch, type JsonObject } from '../output/exporter.js';
import { addExamples } from './examples.js';

/** One row per results flag that takes a fixed set of values. */
function filterRows(): JsonObject[] {
  return FIXED_VALUE_PARAMETERS.map(({ name, values }) => ({ parameter: name, flag: flagOf(name), values: [...values] }));
}

export function registerFiltersCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('filters')
    .summary('The allowed values of every results filter')
    .description('List the allowed values of every results filter (matched case-insensitively). Answered offline.')
    .action(async (_flags: unknown, self: Command) => {
      const context = contextFor(self);
      const { writeDataset } = await import('../output/write.js');
      const { outputOptions } = await import('./output-options.js');
      await writeDataset(
        { shape: 'list', batches: inOneBatch(filterRows()), select: context.globals.columns },
        outputOptions(context, (await context.settings()).defaultFormat),
      );
    });
  addExamples(command, [
    { comment: 'An analyst: every filter and its values', command: 'mkt filters' },
    { comment: 'In a script: the participants, one per line', command: "mkt filters -f json | jq -r '.[] | select(.flag == \"--fee-participant\") | .values[]'" },
  ]);
}
