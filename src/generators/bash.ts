import { allCommands, type CommandSpec } from './model.js';
import { groupBy, optionNames, pathKey, positionalArguments, shellWord, valueOptions, type ValueVariant } from './shell-tables.js';
import type { ValueCompletion } from './value-sources.js';

const words = (items: readonly string[]): string => items.map(shellWord).join(' ');
const pattern = (items: readonly string[]): string => items.map(shellWord).join('|');

/**
 * `_mkt_kind=… _mkt_words=(…)`: how _mkt_complete_value completes one value source. A value
 * after an argument cases on that argument, which _mkt_argument_of has as $3.
 */
function valueAssignment(value: ValueCompletion): string {
  switch (value.kind) {
    case 'choices':
      return `_mkt_kind=${value.commaSeparated ? 'list' : 'choices'} _mkt_words=(${words(value.values)})`;
    case 'listed':
      return `_mkt_kind=${value.commaSeparated ? 'list' : 'choices'} _mkt_listing=${value.command}`;
    case 'files':
    case 'none':
      return `_mkt_kind=${value.kind}`;
    case 'choicesAfter': {
      const branches = Object.entries(value.choices).map(([previous, values]): [string[], string] => [
        [previous],
        valueAssignment({ kind: 'choices', values, commaSeparated: false }),
      ]);
      return caseStatement('$3', branches, '_mkt_kind=none', '      ');
    }
  }
}

/** A case statement whose lines after the first are indented by `indent`, where it is written. */
function caseStatement(subject: string, branches: [string[], string][], otherwise: string, indent = '  ', patternOf = pattern): string {
  const lines = branches.map(([keys, body]) => `${indent}  ${patternOf(keys)}) ${body} ;;`);
  return `case ${subject} in\n${lines.join('\n')}\n${indent}  *) ${otherwise} ;;\n${indent}esac`;
}

/** The assignment for a flag: its one value, or a case on the command path ($2) when it has several. */
function flagAssignment(variants: readonly ValueVariant[]): string {
  const [only] = variants;
  if (variants.length === 1 && only) return valueAssignment(only.value);
  const branches = variants
    .filter(({ value }) => value.kind !== 'none')
    .map(({ value, paths }): [string[], string] => [paths, valueAssignment(value)]);
  return caseStatement('$2', branches, '_mkt_kind=none', '      ');
}

function tables(program: CommandSpec): string {
  const commands = allCommands(program);
  const parents = commands.filter((command) => command.subcommands.length > 0);
  const subcommands = caseStatement(
    '$1',
    parents.map((command) => [[pathKey(command)], `_mkt_words=(${words(command.subcommands.map((sub) => sub.path.at(-1) as string))})`]),
    '_mkt_words=()',
  );
  const flagLists = groupBy(commands, (command) => words(command.options.flatMap(optionNames)));
  const flags = caseStatement(
    '$1',
    [...flagLists].map(([list, group]) => [group.map(pathKey), `_mkt_words=(${list})`]),
    '_mkt_words=()',
  );
  const byValue = groupBy([...valueOptions(program)], ([, { variants }]) => flagAssignment(variants));
  const values = caseStatement('$1', [...byValue].map(([assignment, group]) => [group.map(([name]) => name), assignment]), 'return 1');
  // A variadic argument (the command's only one) is every position: `'compare:'*`.
  const argumentValues = positionalArguments(program)
    .filter(({ value }) => value.kind !== 'none')
    .map(({ key, variadic, value }) => ({ key: variadic ? `${shellWord(key.replace(/\d+$/, ''))}*` : shellWord(key), body: valueAssignment(value) }));
  const argumentsCase = caseStatement(
    '$1:$2',
    [...groupBy(argumentValues, (entry) => entry.body)].map(([body, group]) => [group.map((entry) => entry.key), body]),
    '_mkt_kind=none',
    '  ',
    (keys) => keys.join('|'),
  );

  return `# The subcommands of the command path $1 ('' is mkt itself).
_mkt_commands_of() {
  ${subcommands}
}

# The flags the command path $1 takes.
_mkt_flags_of() {
  ${flags}
}

# What the value of flag $1 is in the command path $2; fails for a flag that takes no value.
_mkt_value_of() {
  _mkt_listing=''
  ${values}
}

# What argument number $2 (from 0) of the command path $1 is; $3 is the argument before it.
_mkt_argument_of() {
  _mkt_listing=''
  ${argumentsCase}
}`;
}

/** The logic, the same for every program: it reads the tables above. Portable to bash 3.2. */
const LOGIC = `
# Offers the candidates in _mkt_words that start with $1, escaped for the command line unless
# the word was opened with a quote (readline closes it). A list value (--fee-action Make,Ta)
# completes its last item, without the items it already has, and with no space after it, so
# that the next item follows its comma.
_mkt_offer() {
  local typed=$1 prefix='' candidate
  if [[ $_mkt_kind == list ]]; then
    prefix=\${typed%"\${typed##*,}"}
    typed=\${typed##*,}
    compopt -o nospace 2>/dev/null
  fi
  for candidate in "\${_mkt_words[@]}"; do
    [[ $candidate == "$typed"* && ,$prefix != *,"$candidate",* ]] || continue
    candidate=$prefix$candidate
    if [[ \${COMP_WORDS[COMP_CWORD]} != [\\"\\']* && $candidate == *[![:alnum:]_,./:@%+=-]* ]]; then
      candidate=$(printf '%q' "$candidate")
    fi
    COMPREPLY+=("$candidate")
  done
}

# Completes a value whose kind _mkt_value_of or _mkt_argument_of has set; the words of a listed
# value come from mkt itself (mkt __exchanges), with the --profile of the command line.
_mkt_complete_value() {
  local typed=$1 IFS=$'\\n'
  if [[ -n $_mkt_listing ]]; then
    _mkt_words=($("\${COMP_WORDS[0]}" $_mkt_listing "\${_mkt_profile[@]}" 2>/dev/null))
  fi
  case $_mkt_kind in
    files)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$typed"))
      ;;
    choices | list) _mkt_offer "$typed" ;;
  esac
}

_mkt() {
  local typed=$2 word=\${COMP_WORDS[COMP_CWORD]} previous=\${COMP_WORDS[COMP_CWORD - 1]}
  local path='' flag='' value='' argument='' position=0 i
  local _mkt_kind=none _mkt_words=() _mkt_listing='' _mkt_profile=()
  COMPREPLY=()

  # The command path, the number of arguments so far and the last one; flag values are skipped.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ \${COMP_WORDS[i + 1]} == = ]]; then
      value=\${COMP_WORDS[i + 2]} # --flag=value, split at '=' by COMP_WORDBREAKS
      i=$((i + 2))
    elif [[ $word == -* ]]; then
      value=\${COMP_WORDS[i + 1]}
      if _mkt_value_of "$word" "$path"; then i=$((i + 1)); fi
    else
      _mkt_commands_of "$path"
      if [[ " \${_mkt_words[*]} " == *" $word "* ]]; then
        path=\${path:+$path }$word
        position=0
      else
        argument=$word
        position=$((position + 1))
      fi
    fi
    if [[ $word == --profile ]] && ((i < COMP_CWORD)); then _mkt_profile=(--profile "$value"); fi
  done

  word=\${COMP_WORDS[COMP_CWORD]}
  if [[ $word == = && $previous == -* ]]; then
    flag=$previous typed=''
  elif [[ $previous == = ]] && ((COMP_CWORD > 1)); then
    flag=\${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $previous == -* ]]; then
    flag=$previous
  fi
  if [[ -n $flag ]] && _mkt_value_of "$flag" "$path"; then
    _mkt_complete_value "$typed"
  elif [[ $word == -* ]]; then
    _mkt_flags_of "$path"
    _mkt_kind=choices
    _mkt_offer "$word"
  else
    _mkt_commands_of "$path"
    if ((\${#_mkt_words[@]} > 0)); then
      _mkt_kind=choices
      _mkt_offer "$typed"
    else
      _mkt_argument_of "$path" "$position" "$argument"
      _mkt_complete_value "$typed"
    fi
  fi
}

complete -F _mkt mkt
`;

/** The bash completion script: `source` it, or put it where bash-completion finds it. */
export function bashScript(program: CommandSpec): string {
  return `# bash completion for mkt                                  -*- shell-script -*-
# Generated by \`mkt completion bash\` from mkt's own definition of its commands: do not edit.
# Install: echo 'source <(mkt completion bash)' >> ~/.bashrc
#      or: mkt completion bash > ~/.local/share/bash-completion/completions/mkt

${tables(program)}
${LOGIC}`;
}
