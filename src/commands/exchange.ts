import type { Command } from 'commander';
import type { ContextFor } from '../program.js';
import type { ExchangeResource } from '../api/paths.js';
import { parseDateRange } from './flag-values.js';

interface ExchangeCommandSpec {
  name: string;
  resource: ExchangeResource;
  description: string;
}

const EXCHANGE_COMMANDS: readonly ExchangeCommandSpec[] = [
  { name: 'fees', resource: 'fees', description: "Show an exchange's fee schedule: maker and taker fees, and the volume tiers." },
  { name: 'rules', resource: 'rules', description: "Show an exchange's rules: trading hours, tick and lot size, circuit breakers." },
  { name: 'order-types', resource: 'orderTypes', description: 'Show the order types an exchange supports.' },
];

export function registerExchangeCommands(program: Command, contextFor: ContextFor): void {
  for (const spec of EXCHANGE_COMMANDS) {
    program
      .command(spec.name)
      .description(spec.description)
      .argument('<exchange>', 'exchange identifier, e.g. NYSE')
      .action(async (exchange: string, _flags: unknown, self: Command) => {
        const { runExchangeCommand } = await import('./exchange-run.js');
        await runExchangeCommand(contextFor(self), { exchange, resource: spec.resource });
      });
  }

  program
    .command('historical')
    .description("Show an exchange's fee schedules over a period.")
    .argument('<exchange>', 'exchange identifier, e.g. NYSE')
    .requiredOption('--start-date <YYYY-MM-DD>', 'start of the period')
    .requiredOption('--end-date <YYYY-MM-DD>', 'end of the period')
    .action(async (exchange: string, flags: { startDate: string; endDate: string }, self: Command) => {
      const period = parseDateRange(
        { flag: '--start-date', value: flags.startDate },
        { flag: '--end-date', value: flags.endDate },
      );
      const { runExchangeCommand } = await import('./exchange-run.js');
      await runExchangeCommand(contextFor(self), {
        exchange,
        resource: 'historical',
        query: { start_date: period.start as string, end_date: period.end as string },
      });
    });
}
