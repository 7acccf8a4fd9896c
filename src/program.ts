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
import { registerTapCommand } from './commands/tap.js';
import { registerExportCommand } from './commands/export.js';
import { registerFiltersCommand } from './commands/filters.js';
import { registerAuthCommand } from './commands/auth.js';
import { registerConfigCommand } from './commands/config.js';
import { registerSandboxCommand } from './commands/sandbox.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerMcpCommand } from './mcp/command.js';
import { addExamples } from './commands/examples.js';
import { UsageError } from './core/errors.js';
import { ERROR_FORMATS } from './core/error-codes.js';
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
const CONNECTION_OPTIONS: readonly GlobalOptionName[] = ['profile', 'baseUrl', 'sandbox', 'sandboxShape', 'timeout', 'retries', 'maxRps', 'insecure', 'dryRun'];
/** The options that start or shape the in-process sandbox. */
const SANDBOX_OPTIONS: readonly GlobalOptionName[] = ['sandbox', 'sandboxShape'];
const GENERAL_OPTIONS: readonly GlobalOptionName[] = ['quiet', 'verbose', 'color', 'errorFormat'];

/**
 * The global options each command reads, so that its help (and the completions, the man page
 * and docs/commands.md, generated from the help) offer those alone. A command with
 * subcommands shows none; a command not listed reads them all.
 */
const GLOBAL_OPTIONS_READ: Readonly<Record<string, readonly GlobalOptionName[]>> = {
  filters: [...OUTPUT_OPTIONS, ...GENERAL_OPTIONS],
  // Its point is the key it stores: a dry run of its check would store nothing and check nothing.
  'auth login': [...CONNECTION_OPTIONS.filter((name) => !SANDBOX_OPTIONS.includes(name) && name !== 'dryRun'), ...GENERAL_OPTIONS],
  'auth status': ['profile', 'baseUrl', ...SANDBOX_OPTIONS, 'verbose', 'color', 'errorFormat'],
  'auth list': [...OUTPUT_OPTIONS, 'profile', ...GENERAL_OPTIONS],
  'auth logout': ['profile', ...GENERAL_OPTIONS],
  'config get': ['profile', 'verbose', 'color', 'errorFormat'],
  'config set': ['profile', 'verbose', 'color', 'errorFormat'],
  'config unset': ['profile', 'verbose', 'color', 'errorFormat'],
  'config list': ['profile', 'verbose', 'color', 'errorFormat'],
  'config path': ['verbose', 'color', 'errorFormat'],
  sandbox: GENERAL_OPTIONS,
  completion: ['errorFormat'],
  sync: ['format', ...CONNECTION_OPTIONS, ...GENERAL_OPTIONS],
  sql: [...OUTPUT_OPTIONS, 'profile', ...SANDBOX_OPTIONS, ...GENERAL_OPTIONS],
  export: ['profile', ...SANDBOX_OPTIONS, ...GENERAL_OPTIONS],
  results: [...OUTPUT_OPTIONS, ...CONNECTION_OPTIONS, ...GENERAL_OPTIONS],
  tap: [...SANDBOX_OPTIONS, 'dryRun', ...GENERAL_OPTIONS],
  // A dry run of a server would answer no call: each tool's requests are the commands' own.
  mcp: [...CONNECTION_OPTIONS.filter((name) => name !== 'dryRun'), ...GENERAL_OPTIONS],
};

/**
 * Commands that refuse, rather than ignore, a global option they do not read: `mkt tap` is run
 * by Singer runners, and takes the service and profile from its config file.
 */
const REFUSING_UNREAD_OPTIONS: ReadonlySet<string> = new Set(['tap']);

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
 * `--sandbox` and `--dry-run` are honoured or refused, never ignored: a command that does not read
 * one (config, filters, completion, the sandbox itself; auth login and logout, which keep or check
 * a key of the user's; sql, which sends nothing) refuses it, exit 2.
 */
function refuseUnread(command: Command, name: 'sandbox' | 'dryRun', flag: string, hint: string): void {
  if (command.getOptionValueSourceWithGlobals(name) !== 'cli' || globalOptionsRead(command).includes(name)) return;
  throw new UsageError(`${flag} does not apply to mkt ${commandPath(command)}`, { hint });
}

/** `--offline` answers from the mirror: a dry run of it would print nothing, and `results` and `diff` would run instead. */
function refuseDryRunOffline(command: Command): void {
  if (command.optsWithGlobals<GlobalOptions>().dryRun !== true || command.getOptionValue('offline') !== true) return;
  throw new UsageError('--dry-run shows the requests to the service, and --offline sends none', { hint: 'Drop --offline to see what the service would be asked.' });
}

function refuseUnreadOptions(command: Command, program: Command): void {
  if (!REFUSING_UNREAD_OPTIONS.has(commandPath(command))) return;
  const read = globalOptionsRead(command);
  const stray = program.options.find((option) => !read.includes(option.attributeName() as GlobalOptionName) && command.getOptionValueSourceWithGlobals(option.attributeName()) === 'cli');
  if (stray) {
    throw new UsageError(`mkt ${commandPath(command)} takes no ${stray.long}`, {
      hint: `Its settings come from the config file (docs/pipelines.md); run \`mkt ${commandPath(command)} --help\` for its options.`,
    });
  }
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
    .option('--dry-run', 'print the requests as curl commands (the key as "$MKT_API_KEY") instead of sending them')
    .optionsGroup(GLOBAL_GROUPS.general)
    .option('-q, --quiet', 'no progress on stderr')
    .option('-v, --verbose', 'log requests on stderr (the key redacted)')
    .option('--no-color', 'no colour (env: NO_COLOR)')
    .addOption(
      new Option('--error-format <format>', 'a failure as text, or as one JSON object on stderr (env: MKT_ERROR_FORMAT)')
        .choices(ERROR_FORMATS)
        .argParser((value) => matchAllowed('--error-format', value, ERROR_FORMATS)),
    );
}

function applyToSubcommands(parent: Command, apply: (command: Command) => void): void {
  for (const command of parent.commands) {
    apply(command);
    applyToSubcommands(command, apply);
  }
}

/**
 * `writeErr` takes what commander writes on stderr, its errors and the help it shows for a
 * mistake: under --error-format json, src/main.ts makes them its one JSON object instead.
 */
export function buildProgram(
  deps: Deps,
  onContext: (context: Context) => void = () => {},
  writeErr: (text: string) => void = (text) => deps.stderr.write(text),
): Command {
  let context: Context | undefined;
  const contextFor: ContextFor = (command) => {
    if (!context) {
      context = new Context(deps, command.optsWithGlobals<GlobalOptions>());
      onContext(context);
    }
    return context;
  };

  const program = new Command('mkt')
    .description('Fee schedules, fee schedule results, rules and order types of 40+ venues.')
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
      writeErr,
      // Help is as wide as the terminal it goes to, as commander does for process.stdout.
      getOutHelpWidth: () => (deps.stdout.isTTY && deps.stdout.columns) || 80,
      getErrHelpWidth: () => (deps.stderr.isTTY && deps.stderr.columns) || 80,
      // Commander's errors in mkt's one style: `mkt: unknown option '--bogus'; did you mean --bogs?`.
      outputError: (text, write) => write(text.replace(/^error: /, 'mkt: ').replace(/\n\(Did you mean (.+)\?\)$/m, '; did you mean $1?')),
    })
    .showHelpAfterError('Run `mkt --help` for usage.')
    .exitOverride()
    .hook('preAction', (_program, action) => {
      refuseUnreadOptions(action, program);
      refuseUnread(action, 'sandbox', '--sandbox', 'The sandbox needs no key or settings: `mkt --sandbox fees NYSE` runs a data command against it.');
      refuseUnread(action, 'dryRun', '--dry-run', 'It prints the requests of the commands that ask the service: `mkt --dry-run results --all`.');
      refuseDryRunOffline(action);
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
  program.commandsGroup('Mirror commands:');
  registerSyncCommand(program, contextFor);
  registerSqlCommand(program, contextFor);
  registerExportCommand(program, contextFor);
  program.commandsGroup('Pipeline and agent commands:');
  registerTapCommand(program, contextFor);
  registerMcpCommand(program, contextFor);
  program.commandsGroup('Setup commands:');
  registerAuthCommand(program, contextFor);
  registerConfigCommand(program, contextFor);
  registerCompletionCommand(program, contextFor);
  program.helpCommand('help [command]', 'Show help for a command');
  program.commandsGroup('Local testing:');
  registerSandboxCommand(program, contextFor);

  addExamples(program, [
    { comment: "Try it without a key: NYSE's fee schedule from a built-in sandbox", command: 'mkt --sandbox fees NYSE' },
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
