import type { Command, Help, Option } from 'commander';
import { type CommandExample, examplesOf } from '../commands/examples.js';
import { argumentValues, optionValues, type ValueCompletion } from './value-sources.js';

/**
 * The program as its help shows it: the one description the completion scripts, the man page
 * and docs/commands.md are generated from, so that none of them can drift from the parser.
 */
export interface OptionSpec {
  /** `-f`, if any. */
  short?: string;
  /** `--format`, if any. */
  long?: string;
  /** As help shows them: `-f, --format <format>`. */
  flags: string;
  /** The bare description, for completion menus. */
  summary: string;
  /** As help shows it, with the default and the choices. */
  description: string;
  /** The help heading it is listed under, without the colon: `Output`, `Filters`. */
  group: string;
  /** An option of the program that this command reads (`--profile` under `results`). */
  global: boolean;
  takesValue: boolean;
  /** What this command takes for it: `--columns` names each command's own fields. */
  value: ValueCompletion;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  required: boolean;
  /** Takes every word from here on (`compare [exchange...]`). */
  variadic: boolean;
  value: ValueCompletion;
}

export interface CommandSpec {
  /** The names below the program: `['auth', 'login']`; `[]` for the program itself. */
  path: readonly string[];
  /** `mkt auth login [options]`. */
  usage: string;
  description: string;
  /** What the parent's help lists it with: its summary, else its description. */
  summary: string;
  options: readonly OptionSpec[];
  arguments: readonly ArgumentSpec[];
  /** Visible subcommands, in help order (commander's own `help` command left out). */
  subcommands: readonly CommandSpec[];
  /** The help heading the command is listed under in its parent's help, without the colon. */
  group: string;
  examples: readonly CommandExample[];
  /** Commander's `help [command]`, where the command has one: completed by the shells, left out of the reference. */
  help?: CommandSpec;
}

const heading = (text: string | undefined, fallback: string): string => (text || fallback).replace(/:$/, '');

function optionSpec(option: Option, help: Help, command: Command, path: readonly string[]): OptionSpec {
  return {
    ...(option.short ? { short: option.short } : {}),
    ...(option.long ? { long: option.long } : {}),
    flags: help.optionTerm(option),
    summary: option.description,
    description: help.optionDescription(option),
    group: heading(option.helpGroupHeading, 'Options'),
    global: command.parent !== null && !command.options.includes(option) && option.long !== '--help',
    takesValue: option.required || option.optional,
    value: optionValues(option, path),
  };
}

/** Walks the program (or any command) the way its help does. */
export function describeCommand(command: Command, path: readonly string[] = []): CommandSpec {
  const help = command.createHelp();
  const helpCommand = help.visibleCommands(command).find((sub) => !command.commands.includes(sub));
  const spec: CommandSpec = {
    path,
    usage: help.commandUsage(command),
    description: help.commandDescription(command),
    summary: help.subcommandDescription(command),
    options: help.visibleOptions(command).map((option) => optionSpec(option, help, command, path)),
    arguments: help.visibleArguments(command).map((argument) => ({
      name: argument.name(),
      description: argument.description,
      required: argument.required,
      variadic: argument.variadic,
      value: argumentValues(path, argument),
    })),
    subcommands: help
      .visibleCommands(command)
      .filter((sub) => command.commands.includes(sub))
      .map((sub) => describeCommand(sub, [...path, sub.name()])),
    group: heading(command.helpGroup(), 'Commands'),
    examples: examplesOf(command),
  };
  if (helpCommand) spec.help = helpCommandSpec(helpCommand, spec);
  return spec;
}

/**
 * The help command, whose argument (which its help does not show, having no description) is
 * one of the commands beside it.
 */
function helpCommandSpec(helpCommand: Command, parent: CommandSpec): CommandSpec {
  const values = parent.subcommands.map((sibling) => sibling.path.at(-1) as string);
  return {
    ...describeCommand(helpCommand, [...parent.path, helpCommand.name()]),
    arguments: helpCommand.registeredArguments.map((argument) => ({
      name: argument.name(),
      description: argument.description,
      required: argument.required,
      variadic: argument.variadic,
      value: { kind: 'choices', values, commaSeparated: false },
    })),
  };
}

/**
 * A command's options as its reference lists them: its own, with the program's options that its
 * help describes its own way (`own`); the program's options that mean to it what the program's
 * help says (`globals`); and whether it reads all the program's options that a command can.
 */
export function optionsOf(command: CommandSpec, program: CommandSpec): { own: OptionSpec[]; globals: OptionSpec[]; all: boolean } {
  const globals = command.options.filter((option) => option.global);
  const programDescription = new Map(program.options.map((option) => [option.long, option.description]));
  const describedOwnWay = (option: OptionSpec) => option.description !== programDescription.get(option.long);
  const readable = program.options.filter((option) => option.long !== '--help' && option.long !== '--version');
  return {
    own: [...command.options.filter((option) => !option.global && option.long !== '--help'), ...globals.filter(describedOwnWay)],
    globals: globals.filter((option) => !describedOwnWay(option)),
    all: globals.length === readable.length,
  };
}

/** The commands, by path, that read an option of the program: `--sandbox` in `fees`, …, `auth status`. */
export function commandsReading(program: CommandSpec, long: string): string[] {
  return allCommands(program)
    .filter((command) => command.path.length > 0 && command.options.some((option) => option.long === long))
    .map((command) => command.path.join(' '));
}

/** Every command of the tree, the program first, each before its subcommands. */
export function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}
