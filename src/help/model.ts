import type { EventEmitter } from 'node:events';
import type { Command, Help } from 'commander';

/**
 * Each command's help as commander's `Help.formatHelp` lays it out, bar the terminal width:
 * written to dist/help.json by `npm run build`, so that bin/help.js answers `mkt --help` and
 * `mkt <command> --help` without loading the bundle or commander (about half of their start-up),
 * and can never drift from the program.
 */
export type HelpModel = Record<string, CommandHelp>;

/** A term (`-f, --format <format>`, `login [options]`) and its description, unwrapped. */
export type HelpItem = [term: string, description: string];

export interface CommandHelp {
  /** `mkt results [options]`, after `Usage: `. */
  usage: string;
  description: string;
  /** The width terms are padded to, as commander's `Help.padWidth` gives it. */
  termWidth: number;
  /** Arguments, then the option groups, then the command groups: each heading with its items. */
  lists: [heading: string, items: HelpItem[]][];
  /** What `addHelpText('after', …)` prints below the lists: the examples, the final hint. */
  after: string;
}

/**
 * The lists `Help.formatHelp` prints, in its order and with its grouping and default headings;
 * without its style hooks, which leave our help uncoloured.
 */
function itemLists(command: Command, help: Help): CommandHelp['lists'] {
  const lists: CommandHelp['lists'] = [];
  const add = (heading: string, items: HelpItem[]) => {
    if (items.length > 0) lists.push([heading, items]);
  };
  add('Arguments:', help.visibleArguments(command).map((argument) => [help.argumentTerm(argument), help.argumentDescription(argument)]));
  const options = help.groupItems([...command.options], help.visibleOptions(command), (option) => option.helpGroupHeading ?? 'Options:');
  for (const [heading, grouped] of options) add(heading, grouped.map((option) => [help.optionTerm(option), help.optionDescription(option)]));
  const commands = help.groupItems([...command.commands], help.visibleCommands(command), (sub) => sub.helpGroup() || 'Commands:');
  for (const [heading, grouped] of commands) add(heading, grouped.map((sub) => [help.subcommandTerm(sub), help.subcommandDescription(sub)]));
  return lists;
}

/** What the command's `addHelpText('after', …)` listeners write. (Commander's typings leave out `emit`.) */
function afterText(command: Command): string {
  let text = '';
  (command as unknown as EventEmitter).emit('afterHelp', { error: false, command, write: (chunk: string) => (text += chunk) });
  return text;
}

function commandHelp(command: Command, help: Help): CommandHelp {
  return {
    usage: help.commandUsage(command),
    description: help.commandDescription(command),
    termWidth: help.padWidth(command, help),
    lists: itemLists(command, help),
    after: afterText(command),
  };
}

/** The help of the program (path '') and of every visible command below it (`auth login`). */
export function helpModel(program: Command): HelpModel {
  const model: HelpModel = {};
  const walk = (command: Command, path: readonly string[]) => {
    const help = command.createHelp();
    model[path.join(' ')] = commandHelp(command, help);
    for (const sub of help.visibleCommands(command).filter((visible) => command.commands.includes(visible))) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return model;
}
