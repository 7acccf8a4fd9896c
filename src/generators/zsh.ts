import { allCommands, type ArgumentSpec, type CommandSpec, type OptionSpec } from './model.js';
import { groupBy, optionNames, shellWord } from './shell-tables.js';
import type { ValueCompletion } from './value-sources.js';

/** A word inside an `_arguments` action, which zsh splits and evaluates: escape by backslash. */
const actionWord = (text: string): string => text.replace(/[^\w,./:@%+=-]/g, '\\$&');
/** Text inside `[…]` of an `_arguments` spec. */
const bracketText = (text: string): string => text.replace(/[\\\]]/g, '\\$&');
/** An entry of `_describe`: `name:description`, a colon in the name escaped. */
const describeEntry = (name: string, description: string): string => `${name.replaceAll(':', '\\:')}:${description}`;

const functionName = (command: CommandSpec): string =>
  ['_mkt_command', ...command.path].join('_').replace(/[^\w]/g, '_');

/** The `_arguments` action of a value; `index` is an argument's position, from 0. */
function action(value: ValueCompletion, index = 0): string {
  switch (value.kind) {
    case 'choices': {
      const words = value.values.map(actionWord).join(' ');
      return value.commaSeparated ? `_mkt_list ${words}` : `(${words})`;
    }
    case 'listed':
      return `${value.commaSeparated ? '_sequence -s , ' : ''}_mkt_listed ${value.command}`;
    case 'files':
      return '_files';
    case 'none':
      return ' ';
    case 'choicesAfter': {
      // _arguments has the arguments before in $line, from 1.
      const branches = Object.entries(value.choices).map(([previous, values]) => `(${actionWord(previous)}) compadd - ${values.map(actionWord).join(' ')} ;;`);
      return `{case $line[${index}] in ${branches.join(' ')} esac}`;
    }
  }
}

/** The name help gives the value, `<format>` → `format`, as the message zsh shows. */
const valueName = (option: OptionSpec): string => /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? 'value';

/** The `_arguments` specs of one option, one per spelling. */
function optionSpecs(option: OptionSpec): string[] {
  const names = optionNames(option);
  // A value flag may be given again (the filters add up); a flag is offered once, either spelling;
  // --help and --version stand alone.
  const standsAlone = option.long === '--help' || option.long === '--version';
  const prefix = standsAlone ? '(- *)' : option.takesValue ? '*' : names.length > 1 ? `(${names.join(' ')})` : '';
  const tail = `[${bracketText(option.summary)}]${option.takesValue ? `:${valueName(option)}:${action(option.value)}` : ''}`;
  const valueMark = (name: string): string => (!option.takesValue ? '' : name.startsWith('--') ? '=' : '+');
  return names.map((name) => shellWord(`${prefix}${name}${valueMark(name)}${tail}`));
}

/**
 * The arrays that hold the options' specs, each written once and used by every command whose
 * option has that value: `_mkt_option_format`, and `_mkt_option_columns_results` where the value
 * differs by command. By option, as each command lists it.
 */
function specsArrays(program: CommandSpec): Map<OptionSpec, string> {
  const names = new Map<OptionSpec, string>();
  const uses = allCommands(program).flatMap((command) => command.options.map((option) => ({ command, option })));
  const byOption = groupBy(uses, ({ option }) => option.flags);
  for (const group of byOption.values()) {
    const first = group[0]?.option as OptionSpec;
    const base = `_mkt_option_${(first.long ?? first.short ?? '').replace(/^-+/, '').replace(/\W/g, '_')}`;
    const byValue = [...groupBy(group, ({ option }) => JSON.stringify(option.value)).values()];
    for (const variant of byValue) {
      const path = byValue.length > 1 ? (variant[0]?.command.path ?? []) : [];
      const name = [base, ...path].join('_').replace(/\W/g, '_');
      for (const { option } of variant) names.set(option, name);
    }
  }
  return names;
}

function optionArrays(arrays: ReadonlyMap<OptionSpec, string>): string {
  const options = new Map([...arrays].map(([option, name]) => [name, option]));
  return [...options].map(([name, option]) => `${name}=(\n  ${optionSpecs(option).join('\n  ')}\n)`).join('\n');
}

function argumentSpec(argument: ArgumentSpec, index: number): string {
  const position = argument.variadic ? '*' : `${index + 1}`;
  return shellWord(`${position}:${argument.required || argument.variadic ? '' : ':'}${argument.name}:${action(argument.value, index)}`);
}

function commandFunction(command: CommandSpec, arrays: ReadonlyMap<OptionSpec, string>): string {
  const specs = command.options.map((option) => `$${arrays.get(option)}`);
  const name = functionName(command);
  if (command.subcommands.length === 0) {
    specs.push(...command.arguments.map(argumentSpec));
    return `${name}() {\n  _arguments -s -S \\\n    ${specs.join(' \\\n    ')}\n}`;
  }
  // (-): once the subcommand is typed, the words after it are its own, even a flag of the
  // program's that it completes its own way (--columns).
  const entries = command.subcommands.map((sub) => shellWord(describeEntry(sub.path.at(-1) as string, sub.summary)));
  const branches = command.subcommands.map((sub) => `      ${shellWord(sub.path.at(-1) as string)}) ${functionName(sub)} && ret=0 ;;`);
  return `${name}() {
  local curcontext=$curcontext state line ret=1
  _arguments -s -S -C \\
    ${[...specs, "'(-)1: :->command'", "'(-)*:: :->argument'"].join(' \\\n    ')} && ret=0
  case $state in
    command)
      local -a commands=(
        ${entries.join('\n        ')}
      )
      _describe -t commands command commands && ret=0
      ;;
    argument)
      curcontext=\${curcontext%:*:*}:mkt-$words[1]:
      case $words[1] in
${branches.join('\n')}
      esac
      ;;
  esac
  return ret
}`;
}

const HELPERS = `# A value that also takes a,b,…: each item is completed.
_mkt_list() {
  _sequence -s , compadd - "$@"
}

# What a hidden command of the mkt being completed prints, one per line, with the --profile of
# the command line. The arguments are that command (__profiles, __exchanges) and compadd's options,
# which _arguments and _sequence insert before it or after it.
_mkt_listed() {
  local listing=\${argv[(r)__*]} expl
  local tag=\${listing#__}
  local -a items
  items=(\${(f)"$(_call_program $tag \${(q)_mkt_program} $listing \${(q)_mkt_profile} 2>/dev/null)"})
  _wanted $tag expl \${tag%s} compadd "\${(@)argv:#$listing}" -a items
}`;

/** The zsh completion script: a `_mkt` function file for $fpath, or to `source` after compinit. */
export function zshScript(program: CommandSpec): string {
  const arrays = specsArrays(program);
  const functions = allCommands(program).map((command) => commandFunction(command, arrays));
  return `#compdef mkt
# zsh completion for mkt.
# Generated by \`mkt completion zsh\` from mkt's own definition of its commands: do not edit.
# Install: echo 'source <(mkt completion zsh)' >> ~/.zshrc
#      or: mkt completion zsh > ~/.zfunc/_mkt, with fpath=(~/.zfunc $fpath) before compinit

${HELPERS}

# The _arguments specs of each option, one per spelling.
${optionArrays(arrays)}

${functions.join('\n\n')}

# The mkt being completed, and the --profile of its command line (the last, as mkt reads it).
_mkt() {
  local _mkt_program=$words[1] flag_at=\${words[(I)--profile(|=*)]}
  local -a _mkt_profile
  if [[ $words[flag_at] == --profile=* ]] && (( flag_at < CURRENT )); then
    _mkt_profile=(--profile \${(Q)words[flag_at]#--profile=})
  elif (( flag_at > 0 && flag_at + 1 < CURRENT )); then
    _mkt_profile=(--profile \${(Q)words[flag_at + 1]})
  fi
  ${functionName(program)} "$@"
}

# Autoloaded from $fpath, this file is the body of _mkt: run it. Sourced, register it, with
# the completion system loaded first if ~/.zshrc has not.
if [[ $funcstack[1] == _mkt ]]; then
  _mkt "$@"
else
  (( $+functions[compdef] )) || { autoload -Uz compinit && compinit }
  compdef _mkt mkt
fi
`;
}
