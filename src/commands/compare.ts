import type { Command } from 'commander';
import type { ContextFor } from './context.js';
import { UsageError } from '../core/errors.js';
import { addExamples } from './examples.js';
import { ENUM_FILTER_VALUES } from '../api/filters.js';
import { matchAllowed, parseExchangeId, parseVolumeFlag } from './flag-values.js';

/** `--make-share`: the part of the volume that adds liquidity, from 0 to 1. */
function parseMakeShare(value: string): number {
  const share = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (Number.isNaN(share)) throw new UsageError(`--make-share must be a number from 0 to 1, not ${JSON.stringify(value)}`);
  return share;
}

export function registerCompareCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('compare')
    .summary('Venues side by side at a monthly volume')
    .description(
      'Rank venues by blended rate at a monthly volume, lowest first: F * maker + (1 - F) * taker, F the --make-share, '
        + 'within one unit and currency (docs/command-notes.md). With none named, every exchange `mkt exchanges` knows.',
    )
    .argument('[exchange...]', 'exchange identifiers, e.g. NYSE CBOE IEX', (value: string, previous: string[] = []) => [...previous, parseExchangeId(value)])
    .option('--volume <n>', 'monthly volume that picks each venue\'s tier (50000000, 5e7, 50M, 2.5B, 750K)', parseVolumeFlag, 0)
    .option('--make-share <f>', 'part of the volume that adds liquidity, from 0 to 1', parseMakeShare, 0.5)
    .option('--fee-type <value>', `only the venues priced in one class's unit: ${ENUM_FILTER_VALUES.fee_type.join(' or ')}`, (value: string) => matchAllowed('--fee-type', value, ENUM_FILTER_VALUES.fee_type))
    .option('--all-exchanges', 'with no exchange named, compare every one `mkt exchanges` knows even when they are more than 50')
    .action(async (exchanges: string[], flags: { volume: number; makeShare: number; feeType?: string; allExchanges?: boolean }, self: Command) => {
      const allExchanges = flags.allExchanges === true;
      if (allExchanges && exchanges.length > 0) {
        throw new UsageError('give exchanges or --all-exchanges, not both', { hint: '--all-exchanges compares every exchange `mkt exchanges` knows.' });
      }
      const { runCompare } = await import('./compare-run.js');
      await runCompare(contextFor(self), { exchanges, allExchanges, volume: flags.volume, makeShare: flags.makeShare, feeType: flags.feeType });
    });
  addExamples(command, [
    { comment: 'Where a 50-million-share month costs least, 30% of it adding liquidity', command: 'mkt compare NYSE NASDAQ CBOE IEX --volume 50M --make-share 0.3' },
    { comment: 'The option venues alone, ranked per contract, 2 million contracts a month', command: 'mkt compare --fee-type Option --volume 2M' },
    { comment: 'Every venue the key reaches, however many, as CSV for a spreadsheet', command: 'mkt compare --all-exchanges --volume 2.5B -o venues.csv' },
  ]);
}
