import { type Argument, Command, Help, Option } from 'commander';
import type { Deps } from './core/deps.js';
import { Context, type ContextFor, type GlobalOptions } from './commands/context.js';
import { type Format, FORMATS } from './output/formats.js';
import { parseSetting } from './config/settings.js';
import { collectList, matchAllowed, parseOutputPath } from './commands/flag-values.js';
import { VERSION } from './core/version.js';
import { registerExchangeCommands } from './commands/exchange.js';
import { registerResultsCommand } from './commands/results.js';
import { registerExchangesCommand } from './commands/exchanges.js';
import { registerCompareCommand } from './commands/compare.js';
import { registerDiffCommand } from './commands/diff.js';
import { registerVersionCommand } from './commands/version.js';
import { registerSyncCommand } from './commands/sync.js';
import { registerSqlCommand } from './commands/sql.js';
import { registerFiltersCommand } from './commands/filters.js';
import { registerAuthCommand } from './commands/auth.js';
import { registerConfigCommand } from './commands/config.js';
import { registerSandboxCommand } from './commands/sandbox.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerMcpCommand } from './mcp/command.js';
import { addExamples } from './commands/examples.js';
import { UsageError } from './core/errors.js';
import { SANDBOX_SHAPES } from './sandbox/limits.js';

/** A flag's value by the same rule as `mkt config set` (src/config/settings.ts). */
function settingArgument(name: 'timeout' | 'retries'): (value: string) => number {
  return (value) => parseSetting(name, value, { label: `--${name}` });
}

/** At least one request per 100 s, so that the spacing stays a sane timer. */
function parseRequestRate(value: string): number {
  const rate = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate >= 0.01 && rate <= 10_000)) {
    throw new UsageError(`--max-rps must be a number of requests per second from 0.01 to 10000, not ${JSON.stringify(value)}`);
  }
  return rate;
}

/** `--format`, in mkt's words: a did-you-mean and the allowed values (`.choices` keeps them for help and completion). */
function formatArgument(value: string): Format {
  return matchAllowed('--format', value, FORMATS);
}

function parseColumnList(value: string, previous: string[] | undefined): string[] {
  const columns = collectList(value, previous);
  if (columns.length === (previous?.length ?? 0)) throw new UsageError(`--columns must be field names separated by commas, not ${JSON.stringify(value)}`);
  return columns;
}

/** Help headings of the global options, in the order help shows them. */
const GLOBAL_GROUPS = { output: 'Output:', connection: 'Connection:', general: 'General:' } as const;

/** Global options by attribute name, in their groups. */
type GlobalOptionName = keyof GlobalOptions;
const OUTPUT_OPTIONS: readonly GlobalOptionName[] = ['format', 'output', 'columns', 'csvSafe'];
const CONNECTION_OPTIONS: readonly GlobalOptionName[] = ['profile', 'baseUrl', 'sandbox', 'sandboxShape', 'timeout', 'retries', 'maxRps', 'insecure'];
/** The options that start or shape the in-process sandbox. */
const SANDBOX_OPTIONS: readonly GlobalOptionName[] = ['sandbox', 'sandboxShape'];
const GENERAL_OPTIONS: readonly GlobalOptionName[] = ['quiet', 'verbose', 'color'];

/**
 * The global options each command reads, so that its help (and the completions, the man page
 * and docs/commands.md, generated from the help) offer those alone. A command with
 * subcommands shows none; a command not listed reads them all.
 */
const GLOBAL_OPTIONS_READ: Readonly<Record<string, readonly GlobalOptionName[]>> = {
  filters: [...OUTPUT_OPTIONS, ...GENERAL_OPTIONS],
  'auth login': [...CONNECTION_OPTIONS.filter((name) => !SANDBOX_OPTIONS.includes(name)), ...GENERAL_OPTIONS],
  'auth status': ['profile', 'baseUrl', ...SANDBOX_OPTIONS, 'verbose', 'color'],
  'auth list': [...OUTPUT_OPTIONS, 'profile', ...GENERAL_OPTIONS],
  'auth logout': ['profile', ...GENERAL_OPTIONS],
  'config get': ['profile', 'verbose', 'color'],
  'config set': ['profile', 'verbose', 'color'],
  'config unset': ['profile', 'verbose', 'color'],
  'config list': ['profile', 'verbose', 'color'],
  'config path': ['verbose', 'color'],
  sandbox: GENERAL_OPTIONS,
  completion: [],
  sync: ['format', ...CONNECTION_OPTIONS, ...GENERAL_OPTIONS],
  sql: [...OUTPUT_OPTIONS, 'profile', ...SANDBOX_OPTIONS, ...GENERAL_OPTIONS],
  results: [...OUTPUT_OPTIONS, ...CONNECTION_OPTIONS, ...GENERAL_OPTIONS],
  mcp: [...CONNECTION_OPTIONS, ...GENERAL_OPTIONS],
};

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

function globalOptionsRead(command: Command): readonly GlobalOptionName[] {
  return GLOBAL_OPTIONS_READ[commandPath(command)] ?? [...OUTPUT_OPTIONS, ...CONNECTION_OPTIONS, ...GENERAL_OPTIONS];
}

/**
 * A global option that a command reads otherwise than the rest, as its help describes it, with
 * the values its completion offers: `mkt sync` writes a line on stderr, and `-f json` adds its
 * summary on stdout.
 */
const GLOBAL_OPTION_HELP: Readonly<Record<string, Partial<Record<GlobalOptionName, { description: string; choices: readonly string[] }>>>> = {
  sync: { format: { description: 'the summary also as one JSON object on stdout (default: only the line on stderr)', choices: ['json'] } },
};

/** The program's options that `command` reads, as its help lists them under their groups. */
function globalOptionsShownBy(command: Command, program: Command): Option[] {
  // `results` has a subcommand and is a command of its own too: it reads the global options.
  if (command === program || (command.commands.length > 0 && !(commandPath(command) in GLOBAL_OPTIONS_READ))) return [];
  const read = globalOptionsRead(command);
  const own = GLOBAL_OPTION_HELP[commandPath(command)] ?? {};
  return program.options
    .filter((option) => !option.hidden && read.includes(option.attributeName() as GlobalOptionName))
    .map((option) => {
      const help = own[option.attributeName() as GlobalOptionName];
      return help ? new Option(option.flags, help.description).choices(help.choices).helpGroup(option.helpGroupHeading ?? '') : option;
    });
}

/**
 * `--sandbox` is honoured or refused, never ignored: a command that does not read it (config,
 * filters, completion, the sandbox itself, auth login and logout, which keep or check a key of
 * the user's) refuses it, exit 2.
 */
function refuseUnreadSandbox(command: Command): void {
  if (command.getOptionValueSourceWithGlobals('sandbox') !== 'cli' || globalOptionsRead(command).includes('sandbox')) return;
  throw new UsageError(`--sandbox does not apply to mkt ${commandPath(command)}`, {
    hint: 'The sandbox needs no key or settings: `mkt --sandbox fees NYSE` runs a data command against it.',
  });
}

/** `--sandbox-shape` shapes the sandbox that `--sandbox` starts: alone, it would be silently ignored. */
function refuseShapeWithoutSandbox(command: Command): void {
  if (command.getOptionValueSourceWithGlobals('sandboxShape') !== 'cli' || command.optsWithGlobals<GlobalOptions>().sandbox) return;
  throw new UsageError('--sandbox-shape needs --sandbox', {
    hint: 'It picks the shape of the in-process sandbox: `mkt --sandbox --sandbox-shape 2026 results`.',
  });
}

function addGlobalOptions(program: Command): void {
  program
    .optionsGroup(GLOBAL_GROUPS.output)
    .addOption(new Option('-f, --format <format>', 'output format (default: table on a terminal, json otherwise)').choices(FORMATS).argParser(formatArgument))
    .option('-o, --output <file>', 'write to this file instead of stdout (- for stdout); it appears whole or not at all', parseOutputPath)
    .option('--columns <a,b,...>', 'fields to output, in this order', parseColumnList)
    .option('--csv-safe', "csv for spreadsheets: a ' before each cell that starts with =, +, -, @, a tab or a CR")
    .optionsGroup(GLOBAL_GROUPS.connection)
    .option('--profile <name>', 'stored profile to use (env: MKT_PROFILE)')
    .option('--base-url <url>', 'base URL of the service (env: MKT_BASE_URL)')
    .option('--sandbox', 'run against an in-process sandbox with its demo key')
    .addOption(
      new Option('--sandbox-shape <shape>', 'with --sandbox: the edition of the service it speaks').choices(SANDBOX_SHAPES).default(SANDBOX_SHAPES[0]),
    )
    .option('--timeout <seconds>', 'timeout per request (default: 30)', settingArgument('timeout'))
    .option('--retries <n>', 'retries per request (default: 4)', settingArgument('retries'))
    .option('--max-rps <n>', 'at most this many requests per second', parseRequestRate)
    .option('--insecure', 'allow sending the key over plain http to a host that is not loopback')
    .optionsGroup(GLOBAL_GROUPS.general)
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
    .showSuggestionAfterError(true)
    .configureHelp({
      sortSubcommands: false,
      // The help commander shows for a mistake (`mkt` alone) goes to stderr: there the program lists its commands alone.
      prepareContext(this: Help & { onError?: boolean }, contextOptions: { error?: boolean; helpWidth?: number }): void {
        Help.prototype.prepareContext.call(this, contextOptions);
        this.onError = contextOptions.error === true;
      },
      // A command's name and arguments: its options are in its own help.
      subcommandTerm(command: Command): string {
        const argumentTerm = (argument: Argument) => {
          const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
          return argument.required ? `<${name}>` : `[${name}]`;
        };
        return [command.name(), ...command.registeredArguments.map(argumentTerm)].join(' ');
      },
      // A command's help lists its own options, then the global options it reads, then -h.
      visibleOptions(this: Help & { onError?: boolean }, command: Command): Option[] {
        if (command === program && this.onError) return [];
        const own = Help.prototype.visibleOptions.call(this, command);
        const help = own.filter((option) => option.long === '--help');
        return [...own.filter((option) => option.long !== '--help'), ...globalOptionsShownBy(command, program), ...help];
      },
    })
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
      // Help is as wide as the terminal it goes to, as commander does for process.stdout.
      getOutHelpWidth: () => (deps.stdout.isTTY && deps.stdout.columns) || 80,
      getErrHelpWidth: () => (deps.stderr.isTTY && deps.stderr.columns) || 80,
      // Commander's errors in mkt's one style: `mkt: unknown option '--bogus'; did you mean --bogs?`.
      outputError: (text, write) => write(text.replace(/^error: /, 'mkt: ').replace(/\n\(Did you mean (.+)\?\)$/m, '; did you mean $1?')),
    })
    .showHelpAfterError('Run `mkt --help` for usage.')
    .exitOverride()
    .hook('preAction', (_program, action) => {
      refuseUnreadSandbox(action);
      refuseShapeWithoutSandbox(action);
    });
  addGlobalOptions(program);
  program.version(VERSION, '-V, --version', 'print the version').helpOption('-h, --help', 'show help');

  program.commandsGroup('Data commands:');
  registerExchangeCommands(program, contextFor);
  registerResultsCommand(program, contextFor);
  registerExchangesCommand(program, contextFor);
  registerCompareCommand(program, contextFor);
  registerDiffCommand(program, contextFor);
  registerVersionCommand(program, contextFor);
  registerFiltersCommand(program, contextFor);
  registerMcpCommand(program, contextFor);
  program.commandsGroup('Mirror commands:');
  registerSyncCommand(program, contextFor);
  registerSqlCommand(program, contextFor);
  program.commandsGroup('Setup commands:');
  registerAuthCommand(program, contextFor);
  registerConfigCommand(program, contextFor);
  registerCompletionCommand(program, contextFor);
  program.helpCommand('help [command]', 'Show help for a command');
  program.commandsGroup('Local testing:');
  registerSandboxCommand(program, contextFor);

  addExamples(program, [
    { comment: "Try it without a key: NYSE's fee schedule from a built-in sandbox", command: 'mkt --sandbox fees NYSE' },
    { comment: 'Every option fee, newest only, as CSV', command: 'mkt results --fee-type Option --latest-only --all -o fees.csv' },
  ]);
  program.addHelpText('after', ({ error }) =>
    `\nRun \`mkt <command> --help\` for a command's options and examples${error ? ',\n`mkt --help` for the options every command takes' : ''}.`);

  applyToSubcommands(program, (command) =>
    command
      .exitOverride()
      .configureOutput(program.configureOutput())
      .showHelpAfterError(`Run \`mkt ${commandPath(command)} --help\` for usage.`));
  return program;
}
