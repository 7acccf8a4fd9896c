import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installed } from '../helpers/installed.js';
import { allCommands } from '../../src/generators/model.js';
import { ENVIRONMENT, EXIT_STATUS } from '../../src/generators/reference-facts.js';
import { type InProcessRun, runInProcess } from '../helpers/run-in-process.js';
import { programSpec } from '../unit/generators/program.js';

const program = programSpec();
const commands = allCommands(program).slice(1);
const leaves = commands.filter((command) => command.subcommands.length === 0);
const MAN_PAGE = fileURLToPath(new URL('../../docs/mkt.1', import.meta.url));

/** `mkt <path…> --help` on a pipe, run once for each path: the other ways of asking are compared with it. */
const helpRuns = new Map<string, Promise<InProcessRun>>();
function helpOf(path: readonly string[]): Promise<InProcessRun> {
  const key = path.join(' ');
  let run = helpRuns.get(key);
  if (run === undefined) helpRuns.set(key, (run = runInProcess([...path, '--help'])));
  return run;
}

/** The section headings of a help text: lines like `Output:` or `Filters (…):`. */
const headings = (text: string): string[] => text.split('\n').filter((line) => /^[A-Z][^:]*:$/.test(line));

describe('mkt --help', () => {
  it('lists the commands in the order people need them, and ends pointing to mkt <command> --help', async () => {
    const run = await helpOf([]);
    expect(run.code).toBe(0);
    const order = ['fees', 'rules', 'order-types', 'historical', 'results', 'exchanges', 'compare', 'diff', 'version', 'filters', 'sync', 'sql', 'export', 'tap', 'mcp', 'auth', 'config', 'completion', 'sandbox'];
    const positions = order.map((name) => run.stdout.search(new RegExp(`^  ${name}\\b`, 'm')));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(headings(run.stdout)).toEqual(['Output:', 'Connection:', 'General:', 'Data commands:', 'Mirror commands:', 'Pipeline and agent commands:', 'Setup commands:', 'Local testing:', 'Examples:']);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe("Run `mkt <command> --help` for a command's options and examples.");
  });
});

describe('mkt alone', () => {
  it('lists every command, one line each, in at most 40 lines on stderr, and exits 2 as a usage mistake', async () => {
    const run = await runInProcess([]);
    expect([run.code, run.stdout]).toEqual([2, '']);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(lines.filter((line) => /^  [a-z-]+ /.test(line)).map((line) => line.trim().split(' ')[0])).toEqual([
      ...program.subcommands.map((command) => command.path[0]).slice(0, -1),
      'help',
      'sandbox',
    ]);
    expect(headings(run.stderr)).toEqual(['Data commands:', 'Mirror commands:', 'Pipeline and agent commands:', 'Setup commands:', 'Local testing:', 'Examples:']);
    expect(lines.slice(-2)).toEqual(["Run `mkt <command> --help` for a command's options and examples,", '`mkt --help` for the options every command takes.']);
  });
});

describe.each(commands.map((command) => [command.path.join(' '), command] as const))('mkt %s --help', (path, command) => {
  it('says what the command does in at most 3 lines at 80 columns (design notes are in docs/command-notes.md)', async () => {
    // Help on a pipe is laid out at 80 columns, as on a terminal that wide ('help at a terminal').
    const run = await helpOf(command.path);
    const description = run.stdout.split('\n\n')[1]?.split('\n') ?? [];
    expect(description.length, path).toBeGreaterThan(0);
    expect(description.length, path).toBeLessThanOrEqual(3);
  });

  it('has a description, grouped options and no catch-all "Global Options" list', async () => {
    const run = await helpOf(command.path);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    expect(lines[2]?.length, 'a description under the usage line').toBeGreaterThan(20);
    expect(headings(run.stdout)).not.toContain('Global Options:');
    expect(headings(run.stdout)).toContain('General:');
    if (leaves.includes(command)) expect(headings(run.stdout).at(-1)).toBe('Examples:');
    expect(command.description, path).not.toBe('');
  });
});

describe('examples', () => {
  it.each(leaves.map((command) => [command.path.join(' '), command] as const))('mkt %s shows two or three of real use', (_path, command) => {
    expect(command.examples.length).toBeGreaterThanOrEqual(2);
    expect(command.examples.length).toBeLessThanOrEqual(3);
    for (const example of command.examples) expect(example.command).toMatch(/\bmkt /);
  });

  it.each(leaves.map((command) => [command.path.join(' '), command] as const))('mkt %s says who runs each in a line that fits 80 columns', (_path, command) => {
    // `  # comment`, as --help prints it: commander does not wrap the text after the options.
    for (const example of command.examples) expect([...`  # ${example.comment}`].length, example.comment).toBeLessThanOrEqual(80);
  });

  it('cover an analyst, a cron job and a jq pipeline for results', () => {
    const results = commands.find((command) => command.path.join(' ') === 'results');
    const text = results?.examples.map((example) => `${example.comment} ${example.command}`).join('\n') ?? '';
    expect(text).toMatch(/analyst/i);
    expect(text).toMatch(/cron/i);
    expect(text).toMatch(/\| jq /);
  });
});

describe('global options in a command’s help', () => {
  it('shows only those the command reads', async () => {
    const config = await helpOf(['config', 'get']);
    expect(config.stdout).toContain('--profile <name>');
    expect(config.stdout).not.toContain('--format');
    const results = await helpOf(['results']);
    expect(headings(results.stdout)).toEqual([
      'Filters (each repeatable, or a,b,… for several values):',
      'Sorting and paging:',
      'Citations (the 2026 edition; an older service ignores them):',
      'Mirror:',
      'Output:',
      'Connection:',
      'General:',
      'Commands:',
      'Examples:',
    ]);
  });

  it('says that --limit stops the walk at N records with or without --all, and it does', async () => {
    const help = await helpOf(['results']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(' --limit <n> stop after this many records, walking pages as needed, with or without --all ');
    const both = await runInProcess(['--sandbox', 'results', '--all', '--limit', '3', '-f', 'ndjson']);
    expect([both.code, both.stdout.split('\n').length - 1, both.stderr]).toEqual([0, 3, '']);
  });

  it('describes --format for mkt sync as what it does there: a summary in JSON, or only the line on stderr', async () => {
    const sync = await helpOf(['sync']);
    expect(sync.stdout.replace(/\s+/g, ' ')).toContain(
      ' -f, --format <format> the summary also as one JSON object on stdout (default: only the line on stderr) (choices: "json") ',
    );
    expect((await helpOf(['sql'])).stdout).toContain('output format (default: table on a terminal');
  });
});

/** Every way of asking for a command's help, and the command it names. */
const HELP_FORMS: [args: string[], path: readonly string[]][] = [
  [['--help'], []],
  [['-h'], []],
  [['help'], []],
  [['help', '--help'], []],
  [['help', '-h'], []],
  ...commands.map((command): [string[], readonly string[]] => [[...command.path, '--help'], command.path]),
  ...commands.map((command): [string[], readonly string[]] => [[...command.path, '-h'], command.path]),
  ...program.subcommands.map((command): [string[], readonly string[]] => [['help', ...command.path], command.path]),
];

describe.each(HELP_FORMS.map(([args, path]) => [args.join(' '), args, path] as const))('mkt %s', (_line, args, path) => {
  it('prints the help of the command it names, on stdout, exit 0', async () => {
    // `mkt <path…> --help` is helpOf's own run, made once for this file.
    const run = await (args.join(' ') === [...path, '--help'].join(' ') ? helpOf(path) : runInProcess(args));
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(new RegExp(`^Usage: ${['mkt', ...path].join(' ')} `));
    expect(run.stdout).toBe((await helpOf(path)).stdout);
  });
});

describe('a command line that only looks like a help request', () => {
  it.each(['nope', 'constructor', 'auth login'])('`mkt %j --help` is left to commander, which shows the program help', async (name) => {
    const run = await runInProcess([name, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await helpOf([])).stdout);
  });
});

describe('mkt help NAME', () => {
  it('says so when NAME is no command, with commander\'s suggestion, and exits 2', async () => {
    const nope = await runInProcess(['help', 'nope']);
    expect([nope.code, nope.stdout, nope.stderr]).toEqual([2, '', "mkt: unknown command 'nope'\nRun `mkt --help` for usage.\n"]);
    const fee = await runInProcess(['help', 'fee']);
    expect([fee.code, fee.stdout, fee.stderr]).toEqual([2, '', "mkt: unknown command 'fee'; did you mean fees?\nRun `mkt --help` for usage.\n"]);
  });

  it('is the program help for `mkt help help`', async () => {
    const run = await runInProcess(['help', 'help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await helpOf([])).stdout);
  });
});

describe('help at a terminal', () => {
  it("is laid out at the terminal's width, and at 80 columns elsewhere", async () => {
    // The description under the usage line is wrapped at the width commander is given.
    const description = (text: string): string[] => text.split('\n\n')[1]?.split('\n') ?? [];
    const narrow = description((await runInProcess(['results', '--help'], { stdout: { isTTY: true, columns: 60 } })).stdout);
    const piped = description((await helpOf(['results'])).stdout);
    expect(Math.max(...narrow.map((line) => line.length))).toBeLessThanOrEqual(60);
    expect(Math.max(...piped.map((line) => line.length))).toBeGreaterThan(60);
    expect(Math.max(...piped.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(narrow.join(' ')).toBe(piped.join(' '));
  });
});

const hasMan = installed('man');

describe(`docs/mkt.1${hasMan ? '' : ' (SKIPPED: man is not installed)'}`, () => {
  const page = readFileSync(MAN_PAGE, 'utf8');

  it.skipIf(!hasMan)('renders with man, without a warning', () => {
    const rendered = spawnSync('man', ['--warnings', '-l', MAN_PAGE], { env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat' }, encoding: 'utf8' });
    expect(rendered.status).toBe(0);
    expect(rendered.stderr).toBe('');
    expect(rendered.stdout).toContain('EXIT STATUS');
  });

  it('covers every command, option, variable, file and exit code', () => {
    const text = page.replaceAll('\\-', '-');
    for (const command of commands) expect(text).toContain(`.SS "${command.usage}"`);
    for (const option of allCommands(program).flatMap((command) => command.options)) expect(text).toContain(option.long ?? option.short);
    for (const { term } of [...ENVIRONMENT, ...EXIT_STATUS]) expect(text).toContain(term);
    expect(text).toContain('config.json');
    expect(text).toContain('credentials.json');
  });

  it('is ASCII, so that any terminal shows it', () => {
    expect(page).toMatch(/^[\x20-\x7e\n]*$/);
  });
});

describe('help into a pipe that closes early', () => {
  it.each(['results --help | true', '--help | head -1'])('`mkt %s` exits 0 with no stack trace', (line) => {
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', `set -o pipefail; "${process.execPath}" bin/mkt.js ${line}`], {
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
