import { type Command, Option } from 'commander';
import type { ContextFor } from './context.js';
import { addExamples } from './examples.js';
import { UsageError } from '../core/errors.js';

/** Flags of `mkt tap`: the Singer specification's, and nothing else. */
interface TapFlags {
  config?: string;
  state?: string;
  catalog?: string;
  /** What older Singer runners call the catalog. */
  properties?: string;
  discover?: boolean;
}

export function registerTapCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('tap')
    .summary('The results as a Singer tap (for Meltano)')
    .description(
      'Write the fee schedule results as Singer messages on stdout: SCHEMA, each record after the --state bookmark, '
        + 'oldest first, and STATE. The config holds base_url, profile and results filters, never the key (docs/pipelines.md).',
    )
    .option('--config <file>', 'the JSON config: base_url, profile and results filters such as exchange_name, fee_type')
    .option('--state <file>', 'the value of the last STATE message of a run: send only what came after it')
    .option('--catalog <file>', "a catalog of --discover's, whose selected fields are sent")
    .addOption(new Option('--properties <file>', 'alias of --catalog').hideHelp())
    .option('--discover', 'print the catalog: the stream fee_schedule_results and its JSON Schema')
    .action(async (flags: TapFlags, self: Command) => {
      if (flags.catalog !== undefined && flags.properties !== undefined) throw new UsageError('give either --catalog or --properties, not both');
      const catalog = flags.catalog ?? flags.properties;
      if (flags.discover && (flags.state !== undefined || catalog !== undefined)) {
        throw new UsageError('--discover writes the catalog: leave out --state and --catalog');
      }
      if (!flags.discover && flags.config === undefined) {
        throw new UsageError('mkt tap needs --config FILE', { hint: 'A config of `{}` takes every result of the profile; `mkt tap --discover` prints the catalog.' });
      }
      const { readTapConfig, runTapCommand } = await import('./tap-run.js');
      const config = readTapConfig(flags.config);
      // The config names the service as the flags would: before the context reads them.
      const root = self.parent as Command;
      if (config.base_url !== undefined) root.setOptionValueWithSource('baseUrl', config.base_url, 'config');
      if (config.profile !== undefined) root.setOptionValueWithSource('profile', config.profile, 'config');
      await runTapCommand(contextFor(self), { config, discover: flags.discover === true, state: flags.state, catalog });
    });
  addExamples(command, [
    { comment: 'The catalog, to choose fields from', command: 'mkt tap --discover --config tap.json > catalog.json' },
    { comment: 'Everything new since the last run, into a Singer target', command: 'mkt tap --config tap.json --state state.json | target-jsonl' },
    { comment: 'In Meltano: tap-mkt, installed beside mkt, is mkt tap (docs/pipelines.md)', command: 'meltano run tap-mkt target-jsonl' },
  ]);
}
