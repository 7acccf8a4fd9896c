import { allCommands, type CommandSpec, type OptionSpec } from './model.js';
import { fishWord, groupBy, optionNames, pathKey, positionalArguments, valueOptions } from './shell-tables.js';
import type { ValueCompletion } from './value-sources.js';

const words = (items: readonly string[]): string => items.map(fishWord).join(' ');

function subcommandsFunction(program: CommandSpec): string {
  const branches = allCommands(program)
    .filter((command) => command.subcommands.length > 0)
    .map((command) => `        case ${fishWord(pathKey(command))}\n            printf '%s\\n' ${words(command.subcommands.map((sub) => sub.path.at(-1) as string))}`);
  return `# The subcommands of the command path $argv[1] ('' is mkt itself), one per line.
function __mkt_subcommands
    switch "$argv[1]"
${branches.join('\n')}
    end
end`;
}

/** `set values …` (and the list prefix) for one value source, in __mkt_values. */
function valueBody(value: ValueCompletion): string | undefined {
  if (value.kind !== 'choices') return undefined;
  const list = value.commaSeparated ? '\n            set list 1' : '';
  return `            set values ${words(value.values)}${list}`;
}

function valuesFunction(program: CommandSpec): string {
  const flagBranches = [...valueOptions(program)].flatMap(([name, { value }]) => {
    const body = valueBody(value);
    return body === undefined ? [] : [{ key: name, body }];
  });
  const argumentBranches = positionalArguments(program).flatMap(({ key, value }) => {
    const body = valueBody(value);
    return body === undefined ? [] : [{ key, body }];
  });
  const branches = [...groupBy([...flagBranches, ...argumentBranches], (branch) => branch.body)].map(
    ([body, group]) => `        case ${words(group.map((branch) => branch.key))}\n${body}`,
  );
  return `# The values of flag $argv[1], or of argument 'PATH:N', one per line. A list (a,b,…)
# completes its last item, without the items it already has.
function __mkt_values
    set -l values
    set -l list 0
    switch $argv[1]
${branches.join('\n')}
    end
    set -l prefix ''
    if test $list = 1
        set prefix (commandline -ct | string replace -r -- '^--[^=]*=' '' | string replace -r -- '[^,]*$' '')
    end
    for value in $values
        contains -- $value (string split , -- $prefix); or echo $prefix$value
    end
end`;
}

function takesValueFunction(program: CommandSpec): string {
  return `# Whether flag $argv[1] takes a value (the next word).
function __mkt_takes_value
    contains -- $argv[1] ${words([...valueOptions(program).keys()])}
end`;
}

const POSITION = `# The command path of the command line, then how many arguments follow it.
function __mkt_position
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l command_path ''
    set -l arguments 0
    set -l skip 0
    for token in $tokens
        if test $skip = 1
            set skip 0
        else if string match -q -- '-*' $token
            if not string match -q -- '*=*' $token; and __mkt_takes_value $token
                set skip 1
            end
        else if contains -- $token (__mkt_subcommands $command_path)
            set command_path (string trim -- "$command_path $token")
            set arguments 0
        else
            set arguments (math $arguments + 1)
        end
    end
    echo $command_path
    echo $arguments
end

# Whether the command line is at one of the command paths given.
function __mkt_in
    contains -- (__mkt_position)[1] $argv
end

# Whether the command line is at command path $argv[1], argument number $argv[2] (from 0).
function __mkt_at_argument
    set -l position (__mkt_position)
    test "$position[1]" = "$argv[1]" -a "$position[2]" = "$argv[2]"
end

# The stored profiles, from the mkt being completed.
function __mkt_profiles
    set -l program (commandline -opc)[1]
    $program __profiles 2>/dev/null
end`;

const valuesCall = (key: string): string => ` -a ${fishWord(`(__mkt_values ${fishWord(key)})`)}`;

/** What follows an option that takes a value: -x for no files, -r -F for files. */
function optionValueArguments(option: OptionSpec): string {
  const key = option.long ?? option.short ?? '';
  switch (option.value.kind) {
    case 'choices':
      return ` -x${valuesCall(key)}`;
    case 'profiles':
      return " -x -a '(__mkt_profiles)'";
    case 'files':
      return ' -r -F';
    case 'none':
      return ' -x';
  }
}

function optionLine(option: OptionSpec, paths: readonly string[]): string {
  const names = [option.short ? ` -s ${option.short.slice(1)}` : '', option.long ? ` -l ${option.long.slice(2)}` : ''].join('');
  const value = option.takesValue ? optionValueArguments(option) : '';
  return `complete -c mkt -n ${fishWord(`__mkt_in ${words(paths)}`)}${names}${value} -d ${fishWord(option.summary)}`;
}

function completeLines(program: CommandSpec): string {
  const commands = allCommands(program);
  const subcommandLines = commands.flatMap((command) =>
    command.subcommands.map(
      (sub) => `complete -c mkt -n ${fishWord(`__mkt_in ${fishWord(pathKey(command))}`)} -a ${fishWord(sub.path.at(-1) as string)} -d ${fishWord(sub.summary)}`,
    ),
  );
  // One line per option, for every command that takes it.
  const uses = new Map<string, { option: OptionSpec; paths: string[] }>();
  for (const command of commands) {
    for (const option of command.options) {
      const use = uses.get(option.flags) ?? { option, paths: [] };
      use.paths.push(pathKey(command));
      uses.set(option.flags, use);
    }
  }
  const optionLines = [...uses.values()].map(({ option, paths }) => optionLine(option, paths));
  const argumentLines = positionalArguments(program)
    .filter(({ value }) => value.kind === 'choices')
    .map(({ command, index, key }) => `complete -c mkt -n ${fishWord(`__mkt_at_argument ${fishWord(pathKey(command))} ${index}`)}${valuesCall(key)}`);
  return [...subcommandLines, '', ...optionLines, '', ...argumentLines].join('\n');
}

/** The fish completion script, for ~/.config/fish/completions/mkt.fish. */
export function fishScript(program: CommandSpec): string {
  return `# fish completion for mkt.
# Generated by \`mkt completion fish\` from mkt's own definition of its commands: do not edit.
# Install: mkt completion fish > ~/.config/fish/completions/mkt.fish

${subcommandsFunction(program)}

${takesValueFunction(program)}

${valuesFunction(program)}

${POSITION}

complete -c mkt -f
${completeLines(program)}
`;
}
