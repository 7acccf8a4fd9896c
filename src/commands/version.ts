import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { addExamples } from './examples.js';
import { idArgument } from './id-argument.js';
import { addIncludeOptions, type IncludeFlags, includesOf } from './include-options.js';

/** `mkt version <version_id>`: every record of one version, from the 2026 reference's endpoint. */
export function registerVersionCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('version')
    .summary('Every fee schedule result of one version')
    .description(
      'Every fee schedule result of one version (one extraction of a fee schedule document), all its pages. '
        + "A service without that endpoint: the mirror's records (mkt sync).",
    )
    .argument('<version_id>', 'the version_id of its records', idArgument('<version_id>', 'a version_id'))
    .option('--allow-drift', 'accept a walk during which the version\'s records changed, with a warning');
  addIncludeOptions(command);
  command.action(async (versionId: string, flags: IncludeFlags & { allowDrift?: boolean }, self: Command) => {
    const { runVersion } = await import('./by-id-run.js');
    await runVersion(contextFor(self), { id: versionId, includes: includesOf(flags), allowDrift: flags.allowDrift === true });
  });
  addExamples(command, [
    { comment: 'An analyst: the line items of a version, with the page each comes from', command: 'mkt version 7c139e34-7c0e-4535-adb5-8538f47f9d63 --include-source' },
    { comment: 'A data team: one version with its footnotes, to Parquet', command: 'mkt version 7c139e34-7c0e-4535-adb5-8538f47f9d63 --include-footnotes -o version.parquet' },
  ]);
}
