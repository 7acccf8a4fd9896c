import type { Command } from 'commander';

/** One example of real use, shown by `--help`, the man page and docs/commands.md. */
export interface CommandExample {
  /** Who runs it and why, in one line: "An analyst: …", "In cron: …". */
  comment: string;
  /** The command line, starting with `mkt`. */
  command: string;
}

const examplesByCommand = new WeakMap<Command, readonly CommandExample[]>();

/** The examples as `--help` prints them after the options. */
function formatExamples(examples: readonly CommandExample[]): string {
  const blocks = examples.map((example) => `  # ${example.comment}\n  $ ${example.command}`);
  return `\nExamples:\n${blocks.join('\n\n')}`;
}

/**
 * Adds an "Examples:" section to the command's help and keeps the examples for the man page
 * and the command reference, which are generated from the same program.
 */
export function addExamples(command: Command, examples: readonly CommandExample[]): Command {
  examplesByCommand.set(command, examples);
  return command.addHelpText('after', formatExamples(examples));
}

export function examplesOf(command: Command): readonly CommandExample[] {
  return examplesByCommand.get(command) ?? [];
}
