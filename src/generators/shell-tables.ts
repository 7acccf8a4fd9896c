import { allCommands, type CommandSpec, type OptionSpec } from './model.js';
import type { ValueCompletion } from './value-sources.js';

/** What the three shell generators share: the program as lookup tables, and quoting. */

/** The program as the shells complete it: with each command's `help`, which the reference leaves out. */
export function withHelpCommands(spec: CommandSpec): CommandSpec {
  const subcommands = spec.subcommands.map(withHelpCommands);
  return { ...spec, subcommands: spec.help ? [...subcommands, spec.help] : subcommands };
}

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
export function positionalArguments(
  program: CommandSpec,
): { command: CommandSpec; index: number; key: string; variadic: boolean; value: ValueCompletion }[] {
  return allCommands(program).flatMap((command) =>
    command.arguments.map((argument, index) => {
      // The scripts match "from here on" as any position: right only for a command's one argument.
      if (argument.variadic && index > 0) throw new Error(`${pathKey(command)}: a variadic argument after others cannot be completed`);
      return { command, index, key: `${pathKey(command)}:${index}`, variadic: argument.variadic, value: argument.value };
    }),
  );
}

/** What an option's value is in some commands, and which (their paths as `pathKey` gives them). */
export interface ValueVariant {
  value: ValueCompletion;
  paths: string[];
}

/**
 * Every option that takes a value, by name, with what to complete for it in each command. The
 * scripts skip a flag's value without regard to the command, so whether a flag takes a value
 * must be the same everywhere; what the value is may differ (`--columns` names each command's
 * fields), so it comes in variants, in the order of the commands.
 */
export function valueOptions(program: CommandSpec): Map<string, { option: OptionSpec; variants: ValueVariant[] }> {
  const byName = new Map<string, { option: OptionSpec; variants: ValueVariant[] }>();
  const takesValue = new Map<string, boolean>();
  for (const command of allCommands(program)) {
    for (const option of command.options) {
      for (const name of optionNames(option)) {
        if (takesValue.has(name) && takesValue.get(name) !== option.takesValue) {
          throw new Error(`${name} takes a value in one command and not in another: the completions cannot tell them apart`);
        }
        takesValue.set(name, option.takesValue);
        if (!option.takesValue) continue;
        const entry = byName.get(name) ?? { option, variants: [] };
        byName.set(name, entry);
        const meaning = JSON.stringify(option.value);
        const variant = entry.variants.find((candidate) => JSON.stringify(candidate.value) === meaning);
        if (variant) variant.paths.push(pathKey(command));
        else entry.variants.push({ value: option.value, paths: [pathKey(command)] });
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
