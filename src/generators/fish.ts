import { allCommands, type CommandSpec, type OptionSpec } from './model.js';
import { fishWord, groupBy, pathKey, positionalArguments, valueOptions, type ValueVariant } from './shell-tables.js';
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

/**
 * `set values …` (and the list prefix) for one value source, in __mkt_values; `label` is what
 * fish shows beside each value: the flag's name, never the list of values again.
 */
function valueBody(value: ValueCompletion, label: string): string | undefined {
  const list = 'commaSeparated' in value && value.commaSeparated ? '\n            set list 1' : '';
  // fish adds no space after a completion that ends in a comma: the next item is typed at once.
  const comma = value.kind === 'choices' && value.trailingComma ? '\n            set comma ,' : '';
  const description = label === '' ? '' : `\n            set description ${fishWord(label)}`;
  switch (value.kind) {
    case 'choices':
      return `            set values ${words(value.values)}${list}${comma}${description}`;
    case 'listed':
      return `            set values (__mkt_listed ${value.command})${list}${description}`;
    case 'choicesAfter': {
      const branches = Object.entries(value.choices).map(([previous, values]) => `                case ${fishWord(previous)}\n                    set values ${words(values)}`);
      return `            switch (__mkt_position)[3]\n${branches.join('\n')}\n            end${description}`;
    }
    case 'files':
    case 'none':
      return undefined;
  }
}

/** What fish shows beside an option's values: `--fee-type` → `fee type`. */
const valueLabel = (option: OptionSpec): string => (option.long ?? option.short ?? '').replace(/^-+/, '').replaceAll('-', ' ');

/** The key __mkt_values finds a flag's values by: the flag, or `PATH:FLAG` where they differ by command. */
function flagKey(name: string, variants: readonly ValueVariant[], variant: ValueVariant): string {
  return variants.length > 1 ? `${variant.paths[0]}:${name}` : name;
}

function valuesFunction(program: CommandSpec): string {
  const flagBranches = [...valueOptions(program)].flatMap(([name, { option, variants }]) =>
    variants.flatMap((variant) => {
      const body = valueBody(variant.value, valueLabel(option));
      return body === undefined ? [] : [{ key: flagKey(name, variants, variant), body }];
    }),
  );
  const argumentBranches = positionalArguments(program).flatMap(({ key, value }) => {
    const body = valueBody(value, '');
    return body === undefined ? [] : [{ key, body }];
  });
  const branches = [...groupBy([...flagBranches, ...argumentBranches], (branch) => branch.body)].map(
    ([body, group]) => `        case ${words(group.map((branch) => branch.key))}\n${body}`,
  );
  return `# The values of flag $argv[1] (or 'PATH:FLAG'), or of argument 'PATH:N', one per line with
# what they are. A list (a,b,…) completes its last item, without the items it already has, and
# with a comma after it where the list may end in one.
function __mkt_values
    set -l values
    set -l list 0
    set -l comma ''
    set -l description ''
    switch $argv[1]
${branches.join('\n')}
    end
    set -l prefix ''
    if test $list = 1
        set prefix (commandline -ct | string replace -r -- '^--[^=]*=' '' | string replace -r -- '[^,]*$' '')
    end
    for value in $values
        contains -- $value (string split , -- $prefix); or echo -- $prefix$value$comma\\t$description
    end
end`;
}

function takesValueFunction(program: CommandSpec): string {
  return `# Whether flag $argv[1] takes a value (the next word).
function __mkt_takes_value
    contains -- $argv[1] ${words([...valueOptions(program).keys()])}
end`;
}

const POSITION = `# The command path of the command line, then how many arguments follow it, and the last one.
function __mkt_position
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l command_path ''
    set -l arguments 0
    set -l last
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
            set last $token
        end
    end
    printf '%s\\n' $command_path $arguments $last
end

# Whether the command line is at one of the command paths given.
function __mkt_in
    contains -- (__mkt_position)[1] $argv
end

# Whether the command line is at command path $argv[1], argument number $argv[2] (from 0), or
# any after it with a third word, "on", for a variadic argument.
function __mkt_at_argument
    set -l position (__mkt_position)
    test "$position[1]" = "$argv[1]"; or return 1
    if test "$argv[3]" = on
        test "$position[2]" -ge "$argv[2]"
    else
        test "$position[2]" = "$argv[2]"
    end
end

# What a hidden command of the mkt being completed prints (__profiles, __exchanges), with the
# --profile of the command line: the last, as mkt reads it.
function __mkt_listed
    set -l tokens (commandline -opc)
    set -l program $tokens[1]
    set -e tokens[1]
    set -l profile
    set -l previous
    for token in $tokens
        if test "$previous" = --profile
            set profile --profile $token
        else if string match -q -- '--profile=*' $token
            set profile --profile (string replace -- --profile= '' $token)
        end
        set previous $token
    end
    $program $argv[1] $profile 2>/dev/null
end`;

const valuesCall = (key: string): string => ` -a ${fishWord(`(__mkt_values ${fishWord(key)})`)}`;

/** What follows an option that takes a value (its values found by `key`): -x for no files, -r -F for files. */
function optionValueArguments(value: ValueCompletion, key: string): string {
  switch (value.kind) {
    case 'choices':
    case 'listed':
    case 'choicesAfter':
      return ` -x${valuesCall(key)}`;
    case 'files':
      return ' -r -F';
    case 'none':
      return ' -x';
  }
}

function optionLine(option: OptionSpec, paths: readonly string[], key: string): string {
  const names = [option.short ? ` -s ${option.short.slice(1)}` : '', option.long ? ` -l ${option.long.slice(2)}` : ''].join('');
  const value = option.takesValue ? optionValueArguments(option.value, key) : '';
  return `complete -c mkt -n ${fishWord(`__mkt_in ${words(paths)}`)}${names}${value} -d ${fishWord(option.summary)}`;
}

function completeLines(program: CommandSpec): string {
  const commands = allCommands(program);
  const subcommandLines = commands.flatMap((command) =>
    command.subcommands.map(
      (sub) => `complete -c mkt -n ${fishWord(`__mkt_in ${fishWord(pathKey(command))}`)} -a ${fishWord(sub.path.at(-1) as string)} -d ${fishWord(sub.summary)}`,
    ),
  );
  // One line per option and value, for every command that takes it so.
  const values = valueOptions(program);
  const uses = commands.flatMap((command) => command.options.map((option) => ({ path: pathKey(command), option })));
  const optionLines = [...groupBy(uses, ({ option }) => option.flags).values()].flatMap((sameFlags) =>
    [...groupBy(sameFlags, ({ option }) => JSON.stringify(option.value)).values()].map((sameValue) => {
      const { option } = sameValue[0] as { option: OptionSpec };
      const name = option.long ?? option.short ?? '';
      const variants = values.get(name)?.variants ?? [];
      const variant = variants.find((candidate) => JSON.stringify(candidate.value) === JSON.stringify(option.value));
      const key = variant ? flagKey(name, variants, variant) : name;
      return optionLine(option, sameValue.map(({ path }) => path), key);
    }),
  );
  const argumentLines = positionalArguments(program)
    .filter(({ value }) => value.kind !== 'none' && value.kind !== 'files')
    .map(({ command, index, key, variadic }) =>
      `complete -c mkt -n ${fishWord(`__mkt_at_argument ${fishWord(pathKey(command))} ${index}${variadic ? ' on' : ''}`)}${valuesCall(key)}`);
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
