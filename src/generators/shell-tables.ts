import { allCommands, type CommandSpec, type OptionSpec } from './model.js';
import type { ValueCompletion } from './value-sources.js';

/** What the three shell generators share: the program as lookup tables, and quoting. */

/** A command's path as the scripts key it: `''` for the program, `'auth login'`. */
export const pathKey = (spec: CommandSpec): string => spec.path.join(' ');

export const optionNames = (option: OptionSpec): string[] => [option.short, option.long].filter((name) => name !== undefined);

/** Commands grouped by an equal value, so that a script lists each distinct value once. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Each command's positional arguments, with the key the scripts look one up by: `PATH:N`, N from 0. */
export function positionalArguments(program: CommandSpec): { command: CommandSpec; index: number; key: string; value: ValueCompletion }[] {
  return allCommands(program).flatMap((command) =>
    command.arguments.map((argument, index) => ({ command, index, key: `${pathKey(command)}:${index}`, value: argument.value })),
  );
}

/**
 * Every option that takes a value, by name, with what to complete for it. The scripts look a
 * flag up without regard to the command, so a flag must mean the same thing everywhere.
 */
export function valueOptions(program: CommandSpec): Map<string, { option: OptionSpec; value: ValueCompletion }> {
  const byName = new Map<string, { option: OptionSpec; value: ValueCompletion }>();
  const seen = new Map<string, string>();
  for (const command of allCommands(program)) {
    for (const option of command.options) {
      const meaning = JSON.stringify([option.takesValue, option.value]);
      for (const name of optionNames(option)) {
        if (seen.has(name) && seen.get(name) !== meaning) {
          throw new Error(`${name} takes a value in one command and not in another: the completions cannot tell them apart`);
        }
        seen.set(name, meaning);
        if (option.takesValue) byName.set(name, { option, value: option.value });
      }
    }
  }
  return byName;
}

const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** A word for sh, bash and zsh: as is when safe, else in single quotes. */
export function shellWord(text: string): string {
  return PLAIN_WORD.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A word for fish, whose single quotes take `\'` and `\\`. */
export function fishWord(text: string): string {
  return PLAIN_WORD.test(text) ? text : `'${text.replace(/[\\']/g, '\\$&')}'`;
}
