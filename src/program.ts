import { Command, InvalidArgumentError, Option } from 'commander';
import type { Deps } from './deps.js';
import { Context, type GlobalOptions } from './context.js';
import { FORMATS } from './output/exporter.js';
import { VERSION } from './version.js';
import { registerExchangeCommands } from './commands/exchange.js';
import { registerResultsCommand } from './commands/results.js';
import { registerFiltersCommand } from './commands/filters.js';
import { registerAuthCommand } from './commands/auth.js';
import { registerConfigCommand } from './commands/config.js';
import { registerSandboxCommand } from './commands/sandbox.js';

/** Hands an action the invocation's Context, built once from the global options. */
export type ContextFor = (command: Command) => Context;

export function parsePositiveNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError('expected a number greater than 0.');
  return parsed;
}

export function parseNonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number ≥ 0.');
  return Number(value);
}

function parseColumnList(value: string, previous: string[] | undefined): string[] {
  const columns = value.split(',').map((name) => name.trim()).filter(Boolean);
  if (columns.length === 0) throw new InvalidArgumentError('expected field names separated by commas.');
  return [...(previous ?? []), ...columns];
}

function addGlobalOptions(program: Command): void {
  program
    .option('--profile <name>', 'stored profile to use (env: MKT_PROFILE)')
    .option('--base-url <url>', 'base URL of the service (env: MKT_BASE_URL)')
    .addOption(new Option('-f, --format <format>', 'output format (default: table on a terminal, json otherwise)').choices(FORMATS))
    .option('-o, --output <file>', 'write to this file instead of stdout; it appears whole or not at all')
    .option('--columns <a,b,...>', 'fields to output, in this order', parseColumnList)
    .option('--sandbox', 'run against an in-process sandbox with its demo key')
    .option('--insecure', 'allow sending the key over plain http to a host that is not loopback')
    .option('--timeout <seconds>', 'timeout per request (default: 30)', parsePositiveNumber)
    .option('--retries <n>', 'retries per request (default: 4)', parseNonNegativeInteger)
    .option('--max-rps <n>', 'at most this many requests per second', parsePositiveNumber)
    .option('-q, --quiet', 'no progress on stderr')
    .option('-v, --verbose', 'log requests on stderr (the key redacted)')
    .option('--no-color', 'no colour (env: NO_COLOR)');
}

function applyToSubcommands(parent: Command, apply: (command: Command) => void): void {
  for (const command of parent.commands) {
    apply(command);
    applyToSubcommands(command, apply);
  }
}

export function buildProgram(deps: Deps, onContext: (context: Context) => void = () => {}): Command {
  let context: Context | undefined;
  const contextFor: ContextFor = (command) => {
    if (!context) {
      context = new Context(deps, command.optsWithGlobals<GlobalOptions>());
      onContext(context);
    }
    return context;
  };

  const program = new Command('mkt')
    .description('Exchange rules, fee schedules, order types and fee schedule results for 40+ trading venues.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
    })
    .exitOverride();
  addGlobalOptions(program);

  registerExchangeCommands(program, contextFor);
  registerResultsCommand(program, contextFor);
  registerFiltersCommand(program, contextFor);
  registerAuthCommand(program, contextFor);
  registerConfigCommand(program, contextFor);
  registerSandboxCommand(program, contextFor);

  applyToSubcommands(program, (command) => command.exitOverride().configureOutput(program.configureOutput()));
  return program;
}
