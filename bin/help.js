'use strict';
// `mkt --help` and `mkt <command> --help` from dist/help.json (src/help/model.ts, written by
// `npm run build`), laid out at the width commander would use, without loading the bundle or
// commander: they were half of the start-up. test/unit/help/fast-help.test.ts checks the text
// against commander's own at several widths, byte for byte.

const HELP_OPTIONS = ['--help', '-h'];

/**
 * The names of the command (none for the program) whose help `args` asks for, in the forms that
 * commander answers with that help alone: `mkt [<command>…] --help|-h`, `mkt help [--help|-h]`,
 * `mkt help <command>`. Anything else, even a longer form commander would also answer (`mkt help
 * auth login`, `mkt auth help login`), is undefined and left to commander.
 */
function requestedNames(args) {
  if (args[0] === 'help' && args.length <= 2) return args.length === 1 || HELP_OPTIONS.includes(args[1]) ? [] : [args[1]];
  if (HELP_OPTIONS.includes(args.at(-1))) return args.slice(0, -1);
  return undefined;
}

// The layout of commander 14's Help (`minWidthToWrap`, `formatItem`, `boxWrap`), written out: its
// package exports only the whole library, whose index loads node:child_process, and the bundle
// holds its own copy of commander. Help here has no colour, so a text's width is its length.
const MIN_WIDTH_TO_WRAP = 40;
const INDENT = '  ';
const SPACER = '  ';

/** Wraps each line of `text` at whitespace to `width` columns. */
function boxWrap(text, width) {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const wrapLine = (line) => {
    const [first, ...chunks] = line.match(/\s*\S+/g) ?? [''];
    const lines = [first];
    for (const chunk of chunks) {
      if (lines.at(-1).length + chunk.length <= width) lines[lines.length - 1] += chunk;
      else lines.push(chunk.trimStart());
    }
    return lines.join('\n');
  };
  return text.split(/\r\n|\n/).map(wrapLine).join('\n');
}

/** `  term  description`, the term padded to `termWidth`, the description wrapped beside it. */
function formatItem([term, description], termWidth, width) {
  if (!description) return INDENT + term;
  const descriptionWidth = width - termWidth - SPACER.length - INDENT.length;
  const preformatted = /\n[^\S\r\n]/.test(description);
  const wrapped =
    descriptionWidth < MIN_WIDTH_TO_WRAP || preformatted
      ? description
      : boxWrap(description, descriptionWidth).replace(/\n/g, `\n${' '.repeat(termWidth + SPACER.length)}`);
  return INDENT + term.padEnd(termWidth) + SPACER + wrapped.replace(/\n/g, `\n${INDENT}`);
}

/** One command's help at `width` columns, as commander's `outputHelp` prints it. */
function formatHelp(help, width) {
  const lines = [`Usage: ${help.usage}`, ''];
  if (help.description) lines.push(boxWrap(help.description, width), '');
  for (const [heading, items] of help.lists) lines.push(heading, ...items.map((item) => formatItem(item, help.termWidth, width)), '');
  return lines.join('\n') + help.after;
}

/** dist/help.json; undefined when a partial build left it out, and commander answers instead. */
function helpModel() {
  try {
    return require('../dist/help.json');
  } catch {
    return undefined;
  }
}

/** Writes the help that `args` asks for and returns true; returns false, having written nothing, for any other command line. */
function answerHelp(args, stdout) {
  const names = requestedNames(args);
  // A name with a space in it (`mkt 'auth login' --help`) is no command.
  if (!names?.every((name) => /^\S+$/.test(name))) return false;
  const model = helpModel();
  const path = names.join(' ');
  if (!model || !Object.hasOwn(model, path)) return false;
  // Commander's width: the terminal's, or 80 when stdout is not a terminal.
  stdout.write(formatHelp(model[path], (stdout.isTTY ? stdout.columns : undefined) ?? 80));
  return true;
}

module.exports = { answerHelp, formatHelp };
