import type { Argument, Option } from 'commander';
import { FIXED_VALUE_PARAMETERS, flagOf } from '../api/filters.js';
import { SETTING_NAMES } from '../config/settings.js';

/** What a shell may offer for an option's value or an argument. */
export type ValueCompletion =
  /** Free text (an exchange, a date, a number): nothing to offer. */
  | { kind: 'none' }
  /** A fixed set. `commaSeparated`: the flag also takes `a,b,…`, so each item is completed. */
  | { kind: 'choices'; values: readonly string[]; commaSeparated: boolean }
  /** The stored profiles, read when completing (`mkt __profiles`). */
  | { kind: 'profiles' }
  | { kind: 'files' };

const NONE: ValueCompletion = { kind: 'none' };
const choices = (values: readonly string[], commaSeparated = false): ValueCompletion => ({ kind: 'choices', values, commaSeparated });

/** The results filters that take a fixed set of values, by flag (src/api/filters.ts). */
const FILTER_VALUES: ReadonlyMap<string, ValueCompletion> = new Map(
  FIXED_VALUE_PARAMETERS.map(({ name, values, repeatable }) => [flagOf(name), choices(values, repeatable)]),
);

/** What to complete after an option; `none` for flags that take no value. */
export function optionValues(option: Option): ValueCompletion {
  if (!option.required && !option.optional) return NONE;
  if (option.argChoices) return choices(option.argChoices);
  if (option.long === '--profile') return { kind: 'profiles' };
  if (option.long === '--output') return { kind: 'files' };
  return (option.long && FILTER_VALUES.get(option.long)) || NONE;
}

/** Commands whose `<name>` argument is a setting name (src/config/settings.ts). */
const SETTING_COMMANDS = new Set(['config get', 'config set', 'config unset']);

/** What to complete for a command's positional argument. */
export function argumentValues(commandPath: readonly string[], argument: Argument): ValueCompletion {
  if (argument.argChoices) return choices(argument.argChoices);
  if (argument.name() === 'name' && SETTING_COMMANDS.has(commandPath.join(' '))) return choices(SETTING_NAMES);
  return NONE;
}
