import type { Command } from 'commander';
import type { ContextFor } from '../program.js';
import { ENUM_FILTER_NAMES, ENUM_FILTER_VALUES, ORDER_BY_VALUES, ORDER_DIR_VALUES } from '../api/filters.js';
import type { JsonObject } from '../output/exporter.js';
import { addExamples } from '../completion/command-examples.js';

/** One row per results flag that takes a fixed set of values. */
export function filterRows(): JsonObject[] {
  const enumerated = ENUM_FILTER_NAMES.map((name) => ({ parameter: name, values: [...ENUM_FILTER_VALUES[name]] }));
  return [
    ...enumerated,
    { parameter: 'order_by', values: [...ORDER_BY_VALUES] },
    { parameter: 'order_dir', values: [...ORDER_DIR_VALUES] },
  ].map(({ parameter, values }) => ({ parameter, flag: `--${parameter.replaceAll('_', '-')}`, values }));
}

export function registerFiltersCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('filters')
    .description('List the allowed values of every results filter (matched case-insensitively). Answered offline.')
    .action(async (_flags: unknown, self: Command) => {
      const context = contextFor(self);
      const { writeDataset } = await import('../output/write.js');
      const { asyncIterable, outputOptions } = await import('./output-options.js');
      await writeDataset(
        { shape: 'list', records: asyncIterable(filterRows()), select: context.globals.columns },
        outputOptions(context, (await context.settings()).defaultFormat),
      );
    });
  addExamples(command, [
    { comment: 'An analyst: every filter and its values', command: 'mkt filters' },
    { comment: 'In a script: the participants, one per line', command: "mkt filters -f json | jq -r '.[] | select(.flag == \"--fee-participant\") | .values[]'" },
  ]);
}
