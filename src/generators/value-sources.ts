import type { Argument, Option } from 'commander';
import { ENUM_FILTER_NAMES, ENUM_FILTER_VALUES, type EnumFilterName, FIXED_VALUE_PARAMETERS, flagOf } from '../api/filters.js';
import { DEFAULT_KEY_PLACEMENTS } from '../api/key-placement.js';
import { EXCHANGE_FIELD_NAMES, RESULT_FIELD_NAMES } from '../api/fields.js';
import { EXCHANGE_COMMAND_RESOURCES } from '../commands/exchange.js';
import { SETTING_NAMES } from '../config/settings.js';
import { FORMATS } from '../output/formats.js';
import { PARTITION_KEYS } from '../mirror/export-keys.js';

/** The hidden commands that print, one per line, what is only known when completing. */
export type ListingCommand = '__profiles' | '__exchanges' | `__${EnumFilterName}`;

/** What a shell may offer for an option's value or an argument. */
export type ValueCompletion =
  /** Free text (a date, a number): nothing to offer. */
  | { kind: 'none' }
  /**
   * A fixed set. `commaSeparated`: the flag also takes `a,b,…`, so each item is completed;
   * `trailingComma`: it takes `a,b,` too (--columns), so an item may be completed with the comma
   * that begins the next.
   */
  | { kind: 'choices'; values: readonly string[]; commaSeparated: boolean; trailingComma?: true }
  /** Read when completing, from a hidden command: the stored profiles, the cached exchange list. */
  | { kind: 'listed'; command: ListingCommand; commaSeparated: boolean }
  | { kind: 'files' }
  /** Choices that depend on the argument before (`config set format <TAB>`); nothing for the others. */
  | { kind: 'choicesAfter'; choices: Readonly<Record<string, readonly string[]>> };

const NONE: ValueCompletion = { kind: 'none' };
const choices = (values: readonly string[], commaSeparated = false): ValueCompletion => ({ kind: 'choices', values, commaSeparated });
const listed = (command: ListingCommand, commaSeparated = false): ValueCompletion => ({ kind: 'listed', command, commaSeparated });

/**
 * The results parameters that take a fixed set of values, by flag (src/api/filters.ts): the
 * enumerated filters' values read at TAB (`mkt __fee_category`: the service's spelling where
 * kept, src/commands/service-spelling.ts), the sort's from the table.
 */
const FILTER_VALUES: ReadonlyMap<string, ValueCompletion> = new Map(
  FIXED_VALUE_PARAMETERS.map(({ name, values, repeatable }) => [
    flagOf(name),
    (ENUM_FILTER_NAMES as readonly string[]).includes(name) ? listed(`__${name as EnumFilterName}`, repeatable) : choices(values, repeatable),
  ]),
);

/** The commands that write fee schedule results. */
const RECORD_COMMANDS = new Set(['results', 'results get', 'version']);

/** The fields `--columns` names, by command: what each one outputs (docs/formats.md). */
function columnValues(commandPath: readonly string[]): ValueCompletion {
  const name = commandPath.join(' ');
  const resource = EXCHANGE_COMMAND_RESOURCES.get(name);
  const fields = RECORD_COMMANDS.has(name) ? RESULT_FIELD_NAMES : resource && EXCHANGE_FIELD_NAMES[resource];
  // collectList drops empty items, so `--columns a,b,` is `--columns a,b`.
  return fields ? { kind: 'choices', values: fields, commaSeparated: true, trailingComma: true } : NONE;
}

/** What to complete after an option of the command at `commandPath`; `none` for flags that take no value. */
export function optionValues(option: Option, commandPath: readonly string[]): ValueCompletion {
  if (!option.required && !option.optional) return NONE;
  if (option.argChoices) return choices(option.argChoices);
  switch (option.long) {
    case '--profile':
      return listed('__profiles');
    case '--exchange-name':
      return listed('__exchanges', true);
    case '--output':
      return { kind: 'files' };
    case '--columns':
      return columnValues(commandPath);
    case '--partition-by':
      return choices(PARTITION_KEYS, true);
  }
  return (option.long && FILTER_VALUES.get(option.long)) || NONE;
}

/** Commands whose `<name>` argument is a setting name (src/config/settings.ts). */
const SETTING_COMMANDS = new Set(['config get', 'config set', 'config unset']);

/** Where the key may go: the two schemes of the service's documents (src/api/paths.ts). */
const KEY_PLACEMENTS = [...new Set(Object.values(DEFAULT_KEY_PLACEMENTS))];

/** The settings that take one of a fixed set of values, or offer the usual ones; the others take free text. */
const SETTING_CHOICES: Readonly<Record<string, readonly string[]>> = { format: FORMATS, exchanges_auth: KEY_PLACEMENTS, results_auth: KEY_PLACEMENTS };

/** What to complete for a command's positional argument. */
export function argumentValues(commandPath: readonly string[], argument: Argument): ValueCompletion {
  if (argument.argChoices) return choices(argument.argChoices);
  if (argument.name() === 'exchange') return listed('__exchanges');
  if (argument.name() === 'fee-type') return choices(ENUM_FILTER_VALUES.fee_type);
  if (argument.name() === 'dir') return { kind: 'files' };
  const path = commandPath.join(' ');
  if (argument.name() === 'name' && SETTING_COMMANDS.has(path)) return choices(SETTING_NAMES);
  if (argument.name() === 'value' && path === 'config set') return { kind: 'choicesAfter', choices: SETTING_CHOICES };
  return NONE;
}
