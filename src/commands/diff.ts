import type { Command } from 'commander';
import { ENUM_FILTER_VALUES } from '../api/filters.js';
import type { VersionChoice } from '../api/group-versions.js';
import type { ContextFor } from './context.js';
import { UsageError } from '../core/errors.js';
import { addExamples } from './examples.js';
import { isServiceId } from './id-argument.js';
import { matchAllowed, parseExchangeId, parseIsoDate } from './flag-values.js';

interface DiffFlags {
  from?: VersionChoice;
  to?: VersionChoice;
  mirror?: string;
  online?: boolean;
  offline?: boolean;
  exitCode?: boolean;
  parseAmounts?: boolean;
}

/** `--from` and `--to`: a date written YYYY-MM-DD, or else a version_id. */
export function versionChoice(flag: string): (value: string) => VersionChoice {
  return (value) => {
    const text = value.trim();
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { date: parseIsoDate(flag, text) };
    if (!isServiceId(text)) {
      throw new UsageError(`${flag} must be a version_id or a date (YYYY-MM-DD), not ${JSON.stringify(value)}`);
    }
    return { versionId: text };
  };
}

export function registerDiffCommand(program: Command, contextFor: ContextFor): void {
  const command = program
    .command('diff')
    .summary('What changed between two fee schedule versions')
    .description(
      "What changed between two versions of an exchange's fee schedule, by default the newest and the one before it, "
        + 'line items paired by what they are, not by id. From the mirror when it is current, else the service '
        + '(docs/command-notes.md).',
    )
    .argument('<exchange>', 'exchange identifier, e.g. NYSE', parseExchangeId)
    .argument('<fee-type>', `fee type: ${ENUM_FILTER_VALUES.fee_type.join(' or ')}`, (value: string) => matchAllowed('<fee-type>', value, ENUM_FILTER_VALUES.fee_type))
    .option('--from <version>', 'the older version: a version_id, or a date for the newest version scraped on or before it', versionChoice('--from'))
    .option('--to <version>', 'the newer version (default: the newest): a version_id or a date', versionChoice('--to'))
    .option('--parse-amounts', 'add parsed amounts, and how much a changed amount moved (+0.0002 USD)')
    .option('--exit-code', 'exit 10 when the versions differ, 0 when they are the same')
    .option('--mirror <path>', 'read this mirror, which must hold the fee schedule (default: the profile\'s, when it holds it)')
    .option('--online', 'ask the service, not the mirror')
    .option('--offline', 'answer from the mirror, sending nothing: it may be behind the service')
    .action(async (exchange: string, feeType: string, flags: DiffFlags, self: Command) => {
      if (flags.online && flags.offline) throw new UsageError('give either --online or --offline, not both');
      if (flags.online && flags.mirror !== undefined) throw new UsageError('--mirror names the mirror to read, and --online reads none: leave one out');
      const { runDiff } = await import('./diff-run.js');
      await runDiff(contextFor(self), {
        exchange,
        feeType,
        from: flags.from,
        to: flags.to,
        mirror: flags.mirror,
        ...(flags.online ? { source: 'online' as const } : flags.offline ? { source: 'offline' as const } : {}),
        exitCode: flags.exitCode === true,
        parseAmounts: flags.parseAmounts === true,
      });
    });
  addExamples(command, [
    { comment: "An analyst: what NYSE's equity fees changed in their newest version", command: 'mkt diff NYSE Equity --parse-amounts' },
    { comment: 'Between the versions in force on two dates, as CSV', command: 'mkt diff CBOE Option --from 2025-01-31 --to 2025-06-30 -o changes.csv' },
    {
      comment: 'In a script: exit 10 when the newest version differs from the one of June 30',
      command: 'mkt diff NYSE Equity --from 2025-06-30 --exit-code -f ndjson > nyse.ndjson; [ $? -eq 10 ] && notify "NYSE fees changed since June"',
    },
  ]);
}
