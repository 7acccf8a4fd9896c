import type { Command } from 'commander';
import type { Deps } from './core/deps.js';
import type { Context } from './commands/context.js';
import { EXIT_CODES, type ExitCode, InterruptedError, MktError, RequestNotSent } from './core/errors.js';
import { exitCodeFor, isCommanderError } from './core/error-codes.js';
import { Logger } from './io/log.js';
import { colorEnabled } from './io/color.js';

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

/** Runs one invocation of `mkt` and returns its exit code. Never throws. */
export async function run(argv: readonly string[], deps: Deps): Promise<ExitCode> {
  let context: Context | undefined;
  const verbose = argv.includes('--verbose') || argv.includes('-v');
  const fallbackLog = () =>
    new Logger(deps.stderr, { quiet: false, verbose, color: colorEnabled(deps.stderr, deps.env, !argv.includes('--no-color')) });
  const stopSignals = trapSignals((signal) => {
    context?.abort(new InterruptedError(signal));
    return context !== undefined;
  });
  try {
    // `results --offline` waits on DuckDB's start, which begins here, told from the words alone
    // before they are parsed: a wrong guess costs DuckDB's native library loaded for nothing.
    if (argv.includes('--offline') && !argv.includes('--help') && !argv.includes('-h')) {
      (await import('./mirror/duckdb.js')).startDuckDB();
    }
    const { buildProgram } = await import('./program.js');
    const program = buildProgram(deps, (created) => {
      context = created;
    });
    await program.parseAsync(helpArguments(program, argv), { from: 'user' });
    return context?.exitCode ?? EXIT_CODES.success;
  } catch (error) {
    // --dry-run printed a request instead of sending it: what would follow it, and success.
    if (error instanceof RequestNotSent) {
      deps.stdout.write(error.then.map((line) => `${line}\n`).join(''));
      return EXIT_CODES.success;
    }
    const code = exitCodeFor(error);
    if (isCommanderError(error)) return code; // commander has printed its own message
    const log = context?.log ?? fallbackLog();
    report(error, log, log.isVerbose);
    return code;
  } finally {
    stopSignals();
    try {
      await context?.dispose();
    } catch (error) {
      if (verbose) fallbackLog().debug(String(error));
    }
  }
}

/**
 * An error mkt reports on purpose (an interruption too) is its message and hint, --verbose or not:
 * a stack trace is for the unexpected, and only with --verbose.
 */
function report(error: unknown, log: Logger, verbose: boolean): void {
  if (error instanceof MktError) {
    log.error(error.message, error.hint);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  log.error(`unexpected error: ${message}`, verbose ? undefined : 'Run again with --verbose for details.');
  if (verbose && error instanceof Error && error.stack) log.debug(error.stack);
}

/** How long a command may take to clean up after Ctrl-C before the process exits anyway. */
const CLEANUP_GRACE_MS = 2000;

/**
 * Routes SIGINT/SIGTERM to the running command, which cleans up and returns 130. With no
 * command running yet, or at a second signal, or when clean-up takes too long, exits at once.
 */
function trapSignals(onSignal: (signal: NodeJS.Signals) => boolean): () => void {
  let received = false;
  const handler = (signal: NodeJS.Signals) => {
    if (received || !onSignal(signal)) process.exit(EXIT_CODES.interrupted);
    received = true;
    setTimeout(() => process.exit(EXIT_CODES.interrupted), CLEANUP_GRACE_MS).unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
