import type { Command } from 'commander';
import type { Deps } from './core/deps.js';
import type { Context } from './commands/context.js';
import { EXIT_CODES, type ExitCode, InterruptedError, MktError, RequestNotSent } from './core/errors.js';
import { describeFailure, ERROR_FORMATS, type ErrorFormat, type FailureDescription, isCommanderError } from './core/error-codes.js';
import { Logger } from './io/log.js';
import { colorEnabled } from './io/color.js';
import { matchAllowed } from './commands/flag-values.js';

/**
 * The command line commander is given for `mkt help NAME`. Commander answers a NAME that is no
 * command, and `help help`, with the program's whole help on stderr and a failure. As `gh` and
 * `git` do, an unknown NAME is reported as an unknown command (exit 2, with commander's
 * suggestion), and `help help` is the program's help.
 */
function helpArguments(program: Command, argv: readonly string[]): string[] {
  const [first, name, ...rest] = argv;
  if (first !== 'help' || name === undefined || name.startsWith('-')) return [...argv];
  if (name === 'help') return ['--help'];
  const known = program.commands.some((command) => command.name() === name || command.aliases().includes(name));
  return known ? [...argv] : [name, ...rest];
}

/**
 * `--error-format`'s value, read before commander parses the line, since a mistake may come
 * before it: undefined when absent, and text when it is no format (commander then refuses it, in text).
 */
function errorFormatFlag(argv: readonly string[]): ErrorFormat | undefined {
  let value: string | undefined;
  for (let index = 0; index < argv.length && argv[index] !== '--'; index += 1) {
    const word = argv[index] as string;
    if (word === '--error-format') value = argv[++index] ?? '';
    else if (word.startsWith('--error-format=')) value = word.slice('--error-format='.length);
  }
  if (value === undefined) return undefined;
  try {
    return matchAllowed('--error-format', value, ERROR_FORMATS);
  } catch {
    return 'text';
  }
}

/** MKT_ERROR_FORMAT, checked: a bad value is a usage error, told in text. */
function errorFormatVariable(env: Deps['env']): ErrorFormat | undefined {
  const value = env.MKT_ERROR_FORMAT;
  return value === undefined || value === '' ? undefined : matchAllowed('MKT_ERROR_FORMAT', value, ERROR_FORMATS);
}

/** Runs one invocation of `mkt` and returns its exit code. Never throws. */
export async function run(argv: readonly string[], deps: Deps): Promise<ExitCode> {
  let context: Context | undefined;
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  const flaggedFormat = errorFormatFlag(argv);
  let errorFormat: ErrorFormat = flaggedFormat ?? 'text';
  /** What commander would have written on stderr under --error-format json, to make the JSON of. */
  const commanderText: string[] = [];
  let failureWritten = false;
  const fallbackLog = () =>
    new Logger(deps.stderr, { quiet: false, verbose, color: colorEnabled(deps.stderr, deps.env, !argv.includes('--no-color')) });
  const writeFailure = (failure: FailureDescription) => {
    failureWritten = true;
    (context?.log ?? fallbackLog()).failure(failure);
  };
  const stopSignals = trapSignals(
    (signal) => {
      context?.abort(new InterruptedError(signal));
      return context !== undefined;
    },
    (signal) => {
      if (errorFormat === 'json' && !failureWritten) writeFailure(describeFailure(new InterruptedError(signal)));
    },
  );
  try {
    const variableFormat = flaggedFormat === undefined ? errorFormatVariable(deps.env) : undefined;
    errorFormat = flaggedFormat ?? variableFormat ?? 'text';
    // `results --offline` waits on DuckDB's start, which begins here, told from the words alone
    // before they are parsed: a wrong guess costs DuckDB's native library loaded for nothing.
    if (argv.includes('--offline') && !argv.includes('--help') && !argv.includes('-h')) {
      (await import('./mirror/duckdb.js')).startDuckDB();
    }
    const { buildProgram } = await import('./program.js');
    const program = buildProgram(
      deps,
      (created) => {
        context = created;
      },
      errorFormat === 'json' ? (text) => commanderText.push(text) : undefined,
    );
    // The variable as commander takes one: the flag, parsed next, outranks it.
    if (variableFormat !== undefined) program.setOptionValueWithSource('errorFormat', variableFormat, 'env');
    await program.parseAsync(helpArguments(program, argv), { from: 'user' });
    context?.log.release();
    return context?.exitCode ?? EXIT_CODES.success;
  } catch (error) {
    // --dry-run printed a request instead of sending it: what would follow it, and success.
    if (error instanceof RequestNotSent) {
      deps.stdout.write(error.then.map((line) => `${line}\n`).join(''));
      context?.log.release();
      return EXIT_CODES.success;
    }
    const failure = describeFailure(error);
    // Help and --version end in a commander error too, and have written what they had to.
    if (failure.exit_code === EXIT_CODES.success) return failure.exit_code;
    const log = context?.log ?? fallbackLog();
    // An error mkt reports on purpose is its message and hint; the unforeseen has a stack, shown with --verbose.
    const unforeseen = !(error instanceof MktError) && !isCommanderError(error);
    if (unforeseen) failure.hint = log.isVerbose ? undefined : 'Run again with --verbose for details.';
    const stack = unforeseen && log.isVerbose && error instanceof Error ? error.stack : undefined;
    if (errorFormat === 'json') {
      if (stack) log.debug(stack);
      writeFailure(isCommanderError(error) ? { ...failure, ...commanderFailure(commanderText.join('')) } : failure);
    } else if (!isCommanderError(error)) {
      // commander has printed its own message
      log.error(unforeseen ? `unexpected error: ${failure.message}` : failure.message, failure.hint);
      if (stack) log.debug(stack);
    }
    return failure.exit_code;
  } finally {
    try {
      await context?.dispose();
    } catch (error) {
      if (verbose) fallbackLog().debug(String(error));
    } finally {
      // After the clean-up, which a second Ctrl-C or the deadline may still cut short.
      stopSignals();
    }
  }
}

/**
 * Commander's words for a mistake, as src/program.ts has it write them (`mkt: unknown option
 * '--x'; did you mean --y?`, then where the usage is), as the message and hint of its JSON.
 * For a command line that names no command, commander shows the help and says nothing itself.
 */
function commanderFailure(written: string): { message: string; hint: string | undefined } {
  const [first = '', ...rest] = written.trimEnd().split('\n');
  if (first.startsWith('mkt: ')) return { message: first.slice('mkt: '.length), hint: rest.join(' ') || undefined };
  const command = /^Usage: (mkt(?: [\w-]+)*)/.exec(first)?.[1] ?? 'mkt';
  return { message: `${command} needs a command`, hint: `Run \`${command} --help\` for usage.` };
}

/** How long a command may take to clean up after Ctrl-C before the process exits anyway. */
const CLEANUP_GRACE_MS = 2000;

/**
 * Routes SIGINT/SIGTERM to the running command, which cleans up and returns 130. With no
 * command running yet, or at a second signal, or when clean-up takes too long, exits at once,
 * after `onExit`.
 */
function trapSignals(onSignal: (signal: NodeJS.Signals) => boolean, onExit: (signal: NodeJS.Signals) => void): () => void {
  let received = false;
  const exit = (signal: NodeJS.Signals) => {
    onExit(signal);
    process.exit(EXIT_CODES.interrupted);
  };
  let deadline: NodeJS.Timeout | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (received || !onSignal(signal)) exit(signal);
    received = true;
    deadline = setTimeout(() => exit(signal), CLEANUP_GRACE_MS).unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  // Clean-up is over: a process that runs on (a test, an embedder) is not ended by its deadline.
  return () => {
    clearTimeout(deadline);
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
