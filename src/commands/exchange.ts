import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import type { ExchangeResource } from '../api/paths.js';
import { parseDateRange, parseExchangeId, parseVolumeFlag } from './flag-values.js';
import { addExamples, type CommandExample } from './examples.js';

interface ExchangeCommandSpec {
  name: string;
  resource: ExchangeResource;
  /** One line, for the program's command list. */
  summary: string;
  description: string;
  examples: readonly CommandExample[];
}

const EXCHANGE_COMMANDS: readonly ExchangeCommandSpec[] = [
  {
    name: 'fees',
    resource: 'fees',
    summary: "An exchange's fee schedule and volume tiers",
    description:
      "Show an exchange's fee schedule: maker and taker fees, and the volume tiers. With --volume N, also the tier "
      + 'and the rates that apply at a monthly volume of N, for the whole volume (docs/command-notes.md).',
    examples: [
      { comment: 'An analyst: the summary and the tiers, at a terminal', command: 'mkt fees NYSE' },
      { comment: 'A pipeline: the taker fee alone', command: "mkt fees NYSE -f json | jq '.fee_schedule.taker_fee'" },
      { comment: 'What a member trading 50 million shares a month pays and earns', command: 'mkt fees NYSE --volume 50M' },
    ],
  },
  {
    name: 'rules',
    resource: 'rules',
    summary: "An exchange's rules: hours, ticks, lots, breakers",
    description: "Show an exchange's rules: trading hours, tick and lot size, circuit breakers.",
    examples: [
      { comment: 'An analyst: the rules, at a terminal', command: 'mkt rules CBOE' },
      { comment: 'A pipeline: the regular session', command: "mkt rules NASDAQ -f json | jq -r '.rules.trading_hours.regular'" },
      { comment: 'The request as a curl line to paste, the key as "$MKT_API_KEY"; none sent', command: 'mkt rules CBOE --dry-run' },
    ],
  },
  {
    name: 'order-types',
    resource: 'orderTypes',
    summary: 'The order types an exchange supports',
    description: 'Show the order types an exchange supports.',
    examples: [
      { comment: 'An analyst: every order type, ✓ or ✗', command: 'mkt order-types IEX' },
      { comment: 'A pipeline: the supported ones only', command: "mkt order-types IEX -f json | jq -r '.order_types[] | select(.supported) | .type'" },
      { comment: 'A spreadsheet: one row per order type', command: 'mkt order-types IEX -o iex-order-types.csv' },
    ],
  },
];

/** The resource each command that takes an `<exchange>` shows, by name: what its `--columns` can name. */
export const EXCHANGE_COMMAND_RESOURCES: ReadonlyMap<string, ExchangeResource> = new Map([
  ...EXCHANGE_COMMANDS.map((spec) => [spec.name, spec.resource] as const),
  ['historical', 'historical'],
]);

export function registerExchangeCommands(program: Command, contextFor: ContextFor): void {
  for (const spec of EXCHANGE_COMMANDS) {
    const command = program
      .command(spec.name)
      .summary(spec.summary)
      .description(spec.description)
      .argument('<exchange>', 'exchange identifier, e.g. NYSE', parseExchangeId);
    if (spec.resource === 'fees') {
      command.option('--volume <n>', 'monthly volume: also show the tier and the rates that apply at it (50000000, 5e7, 50M, 2.5B, 750K)', parseVolumeFlag);
    }
    command.action(async (exchange: string, flags: { volume?: number }, self: Command) => {
      const { runExchangeCommand } = await import('./exchange-run.js');
      await runExchangeCommand(contextFor(self), { exchange, resource: spec.resource, volume: flags.volume });
    });
    addExamples(command, spec.examples);
  }

  const historical = program
    .command('historical')
    .summary("An exchange's fee schedules over a period")
    .description(
      "Show an exchange's fee schedules over a period, or every one the service keeps when no date is given. "
        + 'JSON passes the answer through unchanged.',
    )
    .argument('<exchange>', 'exchange identifier, e.g. NYSE', parseExchangeId)
    .optionsGroup('Period:')
    .option('--start-date <YYYY-MM-DD>', 'start of the period (optional: only the dates given are sent)')
    .option('--end-date <YYYY-MM-DD>', 'end of the period (optional)')
    .action(async (exchange: string, flags: { startDate?: string; endDate?: string }, self: Command) => {
      const period = parseDateRange(
        { flag: '--start-date', value: flags.startDate },
        { flag: '--end-date', value: flags.endDate },
      );
      const query: Record<string, string> = {};
      if (period.start !== undefined) query.start_date = period.start;
      if (period.end !== undefined) query.end_date = period.end;
      const { runExchangeCommand } = await import('./exchange-run.js');
      await runExchangeCommand(contextFor(self), { exchange, resource: 'historical', query });
    });
  addExamples(historical, [
    { comment: 'Every fee schedule the service keeps for IEX', command: 'mkt historical IEX' },
    { comment: "An analyst: NYSE's fee schedules in force during 2024", command: 'mkt historical NYSE --start-date 2024-01-01 --end-date 2024-12-31' },
    {
      comment: 'A pipeline: when each schedule took effect, and its taker fee',
      command: "mkt historical NYSE --start-date 2024-01-01 --end-date 2024-12-31 -f json | jq -r '.fee_schedules[] | [.effective_date, .fee_schedule.taker_fee] | @tsv'",
    },
  ]);
}
