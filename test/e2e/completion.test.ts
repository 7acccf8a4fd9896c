import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { installed } from '../helpers/installed.js';
import { ENUM_FILTER_VALUES } from '../../src/api/filters.js';
import { writeExchangeList } from '../../src/config/exchange-cache.js';
import { SETTING_NAMES } from '../../src/config/settings.js';
import { FORMATS } from '../../src/output/formats.js';
import { useRecordingServers } from '../helpers/recording-server.js';
import { once } from '../helpers/once.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { useInProcessMkt } from '../helpers/mkt-in-process-command.js';
import { spawnMkt } from '../helpers/run-mkt.js';
import { tempDir } from '../helpers/temp-dir.js';

/*
 * The shipped completion scripts, run by the real shells. A shell that is not installed skips
 * its tests with a name that says so (.ci/run installs zsh and fish from Debian's packages).
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMPLETIONS = join(ROOT, 'completions');

const HAS = { bash: installed('bash'), zsh: installed('zsh'), fish: installed('fish'), script: installed('script') };
const missing = (shell: string): string => (HAS[shell as keyof typeof HAS] ? '' : ` (SKIPPED: ${shell} is not installed)`);

/** A cache of exchange lists as `mkt exchanges` leaves it: NYSE, NASDAQ and IEX; CBOE for profile prod. */
function exchangeCache(): string {
  const cacheDir = tempDir('mkt-cache-');
  const list = (ids: string[]) => ({ source: 'service' as const, fetchedAt: '2026-01-01T00:00:00Z', exchanges: ids.map((id) => ({ id, name: null, records: null })) });
  writeExchangeList(cacheDir, 'default', list(['NYSE', 'NASDAQ', 'IEX']));
  writeExchangeList(cacheDir, 'prod', list(['CBOE']));
  return cacheDir;
}

/**
 * The `mkt` on the shells' PATH: the scripts run a hidden command (mkt __exchanges) at each TAB,
 * dozens of times in this file, and the README's way runs `mkt completion <shell>`; each call is
 * run() in this process, as `node bin/mkt.js` would answer it, without a node start for each.
 * (test/slow/startup.test.ts starts the hidden commands as processes, and the last block here pipes one.)
 */
const inProcessMkt = useInProcessMkt();

/** A directory with an `mkt` on PATH that runs this checkout, a config dir with profiles, and a cache. */
function userSetup(): { env: NodeJS.ProcessEnv; configDir: string; cacheDir: string } {
  const home = tempDir('mkt-completion-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  // Once the in-process mkt listens: its script holds the port.
  beforeAll(() => inProcessMkt.install(bin));
  const configDir = join(home, 'config');
  mkdirSync(configDir);
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { dev: { base_url: 'http://127.0.0.1:1' }, prod: {} } }));
  writeFileSync(join(configDir, 'credentials.json'), JSON.stringify({ profiles: { ci: { api_key: 'k'.repeat(20) } } }));
  const cacheDir = exchangeCache();
  const env: NodeJS.ProcessEnv = { PATH: `${bin}${delimiter}${process.env.PATH}`, HOME: home, MKT_CONFIG_DIR: configDir, MKT_CACHE_DIR: cacheDir, TERM: 'dumb' };
  return { env, configDir, cacheDir };
}
const user = userSetup();
/** The same user before `mkt exchanges` has run: no exchange list in the cache. */
const noCacheEnv: NodeJS.ProcessEnv = { ...user.env, MKT_CACHE_DIR: tempDir('mkt-no-cache-') };

/** The columns of a fee schedule's tiers (a row each), as fees --columns names them. */
const TIERS = ['fee_schedule.tier_thresholds.tier', 'fee_schedule.tier_thresholds.volume', 'fee_schedule.tier_thresholds.maker_rebate'];

/** Ends what one completion offered, in the output of a shell that completes several lines. */
const END = '<<END>>';

/** What each completion offered, from the output of a shell that printed END after each. */
function offeredEach(stdout: string, count: number): string[][] {
  const each = stdout.split(`${END}\n`).slice(0, -1).map((offered) => offered.split('\n').filter((line) => line !== ''));
  expect(each).toHaveLength(count);
  return each;
}

/** One completion of bash's: the words as readline splits them, and the current word without its quotes. */
type BashCase = [words: string[], typed?: string];

/**
 * Calls bash's completion function as bash would, once for each case, in one bash: `words` split
 * as readline splits them (`--format=j` is `--format`, `=`, `j`), `typed` the current word
 * without its quotes (the last word by default).
 */
async function bashCompletionsOf(cases: readonly BashCase[], env = user.env): Promise<string[][]> {
  const script = `
    source "$0"
    while (($# > 0)); do
      typed=$1; count=$2; shift 2
      COMP_WORDS=("\${@:1:count}"); shift "$count"
      COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
      COMP_LINE="\${COMP_WORDS[*]}"; COMP_POINT=\${#COMP_LINE}
      _mkt "\${COMP_WORDS[0]}" "$typed" "\${COMP_WORDS[COMP_CWORD - 1]}"
      printf '%s\\n' "\${COMPREPLY[@]}" '${END}'
    done`;
  const args = cases.flatMap(([words, typed = words.at(-1) as string]) => [typed, String(words.length), ...words]);
  const { stdout, stderr } = await run('bash', ['--norc', '--noprofile', '-c', script, join(COMPLETIONS, 'mkt.bash'), ...args], { env });
  expect(stderr).toBe('');
  return offeredEach(stdout, cases.length);
}

async function bashCompletions(words: string[], typed?: string, env = user.env): Promise<string[]> {
  return (await bashCompletionsOf([[words, typed]], env))[0] as string[];
}

/** Types `keys` into an interactive shell on a pseudo-terminal and returns what it printed. */
function typeInto(shellCommand: string, keys: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', shellCommand, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(output));
    child.stdin.write(keys);
  });
}

/** A stand-in for mkt that prints its arguments, to see what the shell inserted. */
// The hidden commands the scripts run at TAB (mkt __fee_category) still reach the real mkt.
const ECHO_ARGS = `mkt() { case $1 in __*) command mkt "$@" ;; *) printf '<%s>' "$@"; printf '\\n' ;; esac; }`;

describe(`bash${missing('bash')}`, () => {
  const table = [
    [['mkt', ''], ['fees', 'rules', 'order-types', 'historical', 'results', 'exchanges', 'compare', 'diff', 'version', 'filters', 'sync', 'sql', 'export', 'tap', 'mcp', 'auth', 'config', 'completion', 'sandbox', 'help']],
    [['mkt', 'he'], ['help']],
    [['mkt', 'help', 's'], ['sync', 'sql', 'sandbox']],
    [['mkt', 'auth', ''], ['login', 'status', 'list', 'logout', 'help']],
    [['mkt', 'config', ''], ['get', 'set', 'unset', 'list', 'path', 'help']],
    [['mkt', 'completion', ''], ['bash', 'zsh', 'fish']],
    [['mkt', 'config', 'set', ''], ['base_url', 'format', 'timeout', 'retries', 'exchanges_auth', 'results_auth']],
    [['mkt', 'results', '--fee-t'], ['--fee-type', '--fee-trade-type']],
    [['mkt', 'results', '--format', ''], ['table', 'json', 'ndjson', 'csv', 'parquet']],
    [['mkt', 'results', '--format', '=', 'n'], ['ndjson']],
    [['mkt', '--profile', 'dev', 'results', '--order-dir', ''], ['asc', 'desc']],
    [['mkt', 'results', '--fee-type', ''], ['Option', 'Equity']],
    [['mkt', 'results', '--fee-action', 'Make,'], ['Make,Take', 'Make,Open', 'Make,Routed', 'Make,Other']],
    [['mkt', 'results', '--fee-participant', 'Market'], ['Market\\ Maker']],
    [['mkt', 'results', '--fee-participant', "'Market M"], ['Market Maker'], 'Market M'],
    [['mkt', '--profile', ''], ['ci', 'dev', 'prod']],
    [['mkt', 'config', 'get', '--profile', 'p'], ['prod']],
    [['mkt', 'fees', ''], ['NYSE', 'NASDAQ', 'IEX']],
    [['mkt', 'compare', ''], ['NYSE', 'NASDAQ', 'IEX']],
    [['mkt', 'compare', 'NYSE', 'N'], ['NYSE', 'NASDAQ']],
    [['mkt', 'diff', 'NYSE', ''], ['Option', 'Equity']],
    [['mkt', 'historical', '--start-date', '2024-01-01', 'N'], ['NYSE', 'NASDAQ']],
    [['mkt', '--profile', 'prod', 'rules', ''], ['CBOE']],
    [['mkt', 'order-types', '--profile', '=', 'prod', ''], ['CBOE']],
    [['mkt', 'results', '--exchange-name', 'NYSE,'], ['NYSE,NASDAQ', 'NYSE,IEX']],
    [['mkt', 'results', '--columns', 'id,exch'], ['id,exchange_name']],
    [['mkt', 'fees', 'NYSE', '--columns', 'exch'], ['exchange']],
    [['mkt', 'fees', 'NYSE', '--columns', 'fee_schedule.tier_thresholds.'], TIERS],
    [['mkt', 'order-types', 'IEX', '--columns', 'exchange,order_types.'], ['exchange,order_types.type', 'exchange,order_types.description', 'exchange,order_types.supported']],
  ] as [string[], string[], string?][];
  // One bash completes every line of the table, at the first of its tests.
  const offered = once(() => bashCompletionsOf(table.map(([words, , typed]) => [words, typed])));
  it.skipIf(!HAS.bash).each(table.map(([words, expected], index) => [words, expected, index] as const))('%j completes to %j', async (_words, expected, index) => {
    expect((await offered())[index]).toEqual(expected);
  });

  it.skipIf(!HAS.bash)('offers every value of every enumerated filter', async () => {
    const filters = Object.entries(ENUM_FILTER_VALUES);
    const offered = await bashCompletionsOf(filters.map(([name]) => [['mkt', 'results', `--${name.replaceAll('_', '-')}`, '']]));
    expect(offered).toEqual(filters.map(([, values]) => values.map((value) => value.replaceAll(' ', '\\ '))));
  });

  it.skipIf(!HAS.bash)("completes a setting's value: format's, and nothing for those with free values", async () => {
    expect(await bashCompletionsOf([[['mkt', 'config', 'set', 'format', '']], [['mkt', 'config', 'set', '--profile', 'dev', 'format', 'j']], [['mkt', 'config', 'set', 'timeout', '']]]))
      .toEqual([FORMATS, ['json'], []]);
  });

  it.skipIf(!HAS.bash)('offers no exchange, and says nothing, before the exchange list is cached', async () => {
    expect(await bashCompletions(['mkt', 'fees', ''])).toEqual(['NYSE', 'NASDAQ', 'IEX']);
    expect(await bashCompletionsOf([[['mkt', 'fees', '']], [['mkt', 'results', '--exchange-name', '']]], noCacheEnv)).toEqual([[], []]);
  });

  it.skipIf(!HAS.bash)('offers only the flags a command reads', async () => {
    const [flags, ofResults] = await bashCompletionsOf([[['mkt', 'config', 'get', '--']], [['mkt', 'results', '--']]]);
    expect(flags).toContain('--profile');
    expect(flags).not.toContain('--format');
    expect(ofResults).toEqual(expect.arrayContaining(['--fee-participant', '--format', '--profile', '--all']));
  });

  it.skipIf(!HAS.bash)('completes file paths for -o', async () => {
    const dir = tempDir('mkt-o-');
    writeFileSync(join(dir, 'fees.parquet'), '');
    expect(await bashCompletions(['mkt', 'results', '-o', join(dir, 'fe')])).toEqual([join(dir, 'fees.parquet')]);
  });

  it.skipIf(!HAS.bash || !HAS.script)(`inserts a value with a space quoted, at a real prompt${missing('script')}`, async () => {
    const keys = `source ${join(COMPLETIONS, 'mkt.bash')}\n${ECHO_ARGS}\nmkt results --fee-participant Mar\t\nmkt results --fee-category 'Legal\t\nexit\n`;
    const output = await typeInto('bash --norc --noprofile -i', keys, user.env);
    expect(output).toContain('<results><--fee-participant><Market Maker>');
    expect(output).toContain('<results><--fee-category><Legal Regulatory Fees>');
  });

  it.skipIf(!HAS.bash || !HAS.script)(`completes a --columns item with no space after it, so the next follows its comma, at a real prompt${missing('script')}`, async () => {
    const keys = `source ${join(COMPLETIONS, 'mkt.bash')}\n${ECHO_ARGS}\nmkt results --columns id,exch\t,fee_ty\t\nexit\n`;
    expect(await typeInto('bash --norc --noprofile -i', keys, user.env)).toContain('<results><--columns><id,exchange_name,fee_type>');
  });

  it.skipIf(!HAS.bash || !HAS.script)(`works as the README installs it: \`source <(mkt completion bash)\`${missing('script')}`, async () => {
    const keys = `source <(mkt completion bash)\n${ECHO_ARGS}\nmkt results --fee-symbol-type Non\t\nexit\n`;
    expect(await typeInto('bash --norc --noprofile -i', keys, user.env)).toContain('<results><--fee-symbol-type><Non Penny>');
  });
});

/**
 * zsh driving an interactive zsh on a pseudo-terminal (zpty), with compinit and the shipped _mkt:
 * for each pair of arguments, types the first, prints what the shell wrote until it wrote the
 * second, then END, and gives the next pair a prompt of its own (Ctrl-U, Enter: Ctrl-C would
 * kill a completion still listing).
 */
const ZSH_DRIVER = `
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "source \${(q)0:h}/init.zsh"
zpty -r z out '*<<READY>>*'
for keys mark in "$@"; do
  zpty -w -n z "$keys"
  zpty -r z out "*\${(b)mark}*"
  print -r -- "$out"
  print -r -- '${END}'
  zpty -w -n z $'\\C-u\\C-m'
  zpty -r z out '*<<READY>>*'
done
zpty -d z`;

/**
 * As a packager installs it: _mkt on $fpath, then compinit. compinit keeps what it finds on
 * $fpath in a dump, as a user's does; this file's zshs share one, so only the first looks.
 */
const ZSH_FPATH = `fpath=(${COMPLETIONS} $fpath)\nautoload -Uz compinit && compinit -u -d ${join(tempDir('mkt-zsh-dump-'), 'zcompdump')}`;

/** Prints every match zsh offers, and a mark when the completion is done. */
const ZSH_CAPTURE = `
PS1='<<READY>>'
compadd() {
  if (( \${@[(I)-(O|A|D)]} )); then builtin compadd "$@"; return; fi
  local -a matches
  builtin compadd -O matches "$@"
  print -rl -- "<<MATCH>>"$^matches
  builtin compadd "$@"
}
_print_done() { print -n '<<DONE>>' }
# comppostfuncs is emptied after each completion: each prompt sets it again.
precmd() { comppostfuncs=(_print_done) }
`;

/**
 * Runs each `keys` in one interactive zsh that ran `init` (the way _mkt is loaded, and more),
 * each at a prompt of its own, and returns what it wrote for each until it wrote `until`.
 */
async function zshEach(typings: readonly [keys: string, until: string][], init = ZSH_FPATH, env = user.env): Promise<string[]> {
  const dir = tempDir('mkt-zsh-');
  writeFileSync(join(dir, 'driver.zsh'), ZSH_DRIVER);
  writeFileSync(join(dir, 'init.zsh'), `${init}\n${ZSH_CAPTURE}`);
  const { stdout } = await run('zsh', ['-f', join(dir, 'driver.zsh'), ...typings.flat()], { env, timeout: 20_000 });
  const each = stdout.split(`${END}\n`).slice(0, -1);
  expect(each).toHaveLength(typings.length);
  return each;
}

async function zsh(keys: string, until: string, init?: string, env?: NodeJS.ProcessEnv): Promise<string> {
  return (await zshEach([[keys, until]], init, env))[0] as string;
}

/** What zsh offers at TAB after each line, in one zsh. */
async function zshCompletionsOf(lines: readonly string[], init?: string, env?: NodeJS.ProcessEnv): Promise<string[][]> {
  const outputs = await zshEach(lines.map((line) => [`${line}\t`, '<<DONE>>']), init, env);
  return outputs.map((output) => [...output.matchAll(/<<MATCH>>([^\r\n]*)/g)].map((match) => match[1] as string));
}

async function zshCompletions(line: string, init?: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  return (await zshCompletionsOf([line], init, env))[0] as string[];
}

describe(`zsh${missing('zsh')}`, () => {
  const table: [string, string[]][] = [
    ['mkt ', ['fees', 'rules', 'order-types', 'historical', 'results', 'exchanges', 'compare', 'diff', 'version', 'filters', 'sync', 'sql', 'export', 'tap', 'mcp', 'auth', 'config', 'completion', 'sandbox', 'help']],
    ['mkt he', ['help']],
    ['mkt help co', ['compare', 'config', 'completion']],
    ['mkt auth ', ['login', 'status', 'list', 'logout', 'help']],
    ['mkt config unset ', ['base_url', 'format', 'timeout', 'retries', 'exchanges_auth', 'results_auth']],
    ['mkt results --fee-t', ['--fee-type', '--fee-trade-type']],
    ['mkt results --format=', ['table', 'json', 'ndjson', 'csv', 'parquet']],
    ['mkt --profile dev results --fee-type ', ['Option', 'Equity']],
    ['mkt results --fee-action Make,', ['Take', 'Open', 'Routed', 'Other']],
    ['mkt results --fee-participant Mar', ['Market Maker']],
    ['mkt --profile ', ['ci', 'dev', 'prod']],
    ['mkt fees ', ['NYSE', 'NASDAQ', 'IEX']],
    ['mkt compare NYSE ', ['NYSE', 'NASDAQ', 'IEX']],
    ['mkt diff NYSE ', ['Option', 'Equity']],
    ['mkt --profile prod historical ', ['CBOE']],
    ['mkt rules --profile=prod ', ['CBOE']],
    ['mkt results --exchange-name NYSE,', ['NASDAQ', 'IEX']],
    ['mkt results --columns id,exch', ['exchange_name']],
    ['mkt fees NYSE --columns fee_schedule.tier_thresholds.', TIERS],
  ];
  const settingLines = ['mkt config set ', 'mkt config set format ', 'mkt config set timeout '];
  // One zsh completes every line of the table, and the settings' lines after them (each zsh
  // runs compinit), at the first of its tests.
  const offered = once(() => zshCompletionsOf([...table.map(([line]) => line), ...settingLines]));
  it.skipIf(!HAS.zsh).each(table.map(([line, expected], index) => [line, expected, index] as const))('%j completes to %j', async (_line, expected, index) => {
    expect((await offered())[index]).toEqual(expected);
  });

  it.skipIf(!HAS.zsh)("completes a setting's name, then its value: format's, and nothing for those with free values", async () => {
    expect((await offered()).slice(table.length)).toEqual([SETTING_NAMES, FORMATS, []]);
  });

  it.skipIf(!HAS.zsh)('offers no exchange, and says nothing, before the exchange list is cached', async () => {
    const output = await zsh('mkt fees \t', '<<DONE>>', ZSH_FPATH, noCacheEnv);
    expect(output).toContain('<<DONE>>');
    expect(output).not.toContain('<<MATCH>>');
    expect(output).not.toContain('mkt:');
  });

  it.skipIf(!HAS.zsh)('inserts a value with a space quoted', async () => {
    const output = await zsh('mkt results --fee-participant Mar\t\n', '<Market Maker>', `${ZSH_FPATH}\n${ECHO_ARGS}`);
    expect(output).toContain('<results><--fee-participant><Market Maker>');
  });

  it.skipIf(!HAS.zsh)("works as the README installs it: `source <(mkt completion zsh)` in a .zshrc without compinit", async () => {
    expect(await zshCompletions('mkt results --order-dir ', 'source <(mkt completion zsh)')).toEqual(['asc', 'desc']);
  });
});

/** Each completion fish offers for each line, with its description ('' for none): one fish completes every line. */
async function fishOffersOf(lines: readonly string[], env = user.env): Promise<[string, string][][]> {
  const script = `source $argv[1]; for line in $argv[2..-1]; complete -C $line; echo '${END}'; end`;
  const { stdout, stderr } = await run('fish', ['-N', '-c', script, join(COMPLETIONS, 'mkt.fish'), ...lines], { env });
  expect(stderr).toBe('');
  return offeredEach(stdout, lines.length).map((offered) => offered.map((entry) => {
    const [value = '', description = ''] = entry.split('\t');
    return [value, description];
  }));
}

async function fishCompletionsOf(lines: readonly string[], env?: NodeJS.ProcessEnv): Promise<string[][]> {
  return (await fishOffersOf(lines, env)).map((offers) => offers.map(([value]) => value));
}

async function fishCompletions(line: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  return (await fishCompletionsOf([line], env))[0] as string[];
}

describe(`fish${missing('fish')}`, () => {
  const table: [string, string[]][] = [
    ['mkt ', ['auth', 'compare', 'completion', 'config', 'diff', 'exchanges', 'export', 'fees', 'filters', 'help', 'historical', 'mcp', 'order-types', 'results', 'rules', 'sandbox', 'sql', 'sync', 'tap', 'version']],
    ['mkt he', ['help']],
    ['mkt help co', ['compare', 'completion', 'config']],
    ['mkt config ', ['get', 'help', 'list', 'path', 'set', 'unset']],
    ['mkt config get ', ['base_url', 'exchanges_auth', 'format', 'results_auth', 'retries', 'timeout']],
    ['mkt results --fee-t', ['--fee-trade-type', '--fee-type']],
    ['mkt results -f ', ['csv', 'json', 'ndjson', 'parquet', 'table']],
    ['mkt --profile dev results --fee-type ', ['Equity', 'Option']],
    ['mkt results --fee-action Make,', ['Make,Open', 'Make,Other', 'Make,Routed', 'Make,Take']],
    ['mkt results --fee-participant Mar', ['Market Maker']],
    ["mkt results --fee-participant 'Market M", ['Market Maker']],
    ['mkt --profile ', ['ci', 'dev', 'prod']],
    ['mkt fees ', ['IEX', 'NASDAQ', 'NYSE']],
    ['mkt compare NYSE ', ['IEX', 'NASDAQ', 'NYSE']],
    ['mkt diff NYSE ', ['Equity', 'Option']],
    ['mkt --profile prod order-types ', ['CBOE']],
    ['mkt historical --profile=prod ', ['CBOE']],
    ['mkt results --exchange-name NYSE,', ['NYSE,IEX', 'NYSE,NASDAQ']],
    // With the comma that begins the next item: fish adds no space after a comma.
    ['mkt results --columns id,exch', ['id,exchange_name,']],
    ['mkt fees NYSE --columns fee_schedule.tier_thresholds.', TIERS.map((name) => `${name},`).sort()],
  ];
  const settingLines = ['mkt config set ', 'mkt config set format ', 'mkt config set retries '];
  const describedLines = ['mkt results --fee-action ', 'mkt --format j', 'mkt results --fee-ac'];
  // One fish completes every line of the table, then the settings' lines, the described ones and
  // a path after -o, at the first of the tests that read them.
  const offers = once(async () => {
    const dir = tempDir('mkt-o-');
    writeFileSync(join(dir, 'fees.parquet'), '');
    const each = await fishOffersOf([...table.map(([line]) => line), ...settingLines, ...describedLines, `mkt results -o ${join(dir, 'fe')}`]);
    return { dir, each };
  });
  /** The values fish offered for `count` lines from the `first`. */
  const offered = async (first: number, count = 1) => (await offers()).each.slice(first, first + count).map((values) => values.map(([value]) => value));
  it.skipIf(!HAS.fish).each(table.map(([line, expected], index) => [line, expected, index] as const))('%j completes to %j', async (_line, expected, index) => {
    expect((await offered(index))[0]).toEqual(expected);
  });

  it.skipIf(!HAS.fish || !HAS.script)(`completes a --columns item with no space after it, so the next follows, at a real prompt${missing('script')}`, async () => {
    const keys = `source ${join(COMPLETIONS, 'mkt.fish')}\nfunction mkt; printf '<%s>' $argv; printf '\\n'; end\nmkt results --columns id,exch\tfee_ty\t\nexit\n`;
    const output = await typeInto('fish -N -i', keys, { ...user.env, HOME: tempDir('mkt-fish-home-') });
    // mkt takes the comma left at the end: `--columns id,exchange_name,fee_type,` is those two columns.
    expect(output).toContain('<results><--columns><id,exchange_name,fee_type,>');
  });

  it.skipIf(!HAS.fish)("completes a setting's name, then its value: format's, and nothing for those with free values", async () => {
    expect(await offered(table.length, settingLines.length)).toEqual([[...SETTING_NAMES].sort(), [...FORMATS].sort(), []]);
  });

  it.skipIf(!HAS.fish)('offers no exchange, and says nothing, before the exchange list is cached', async () => {
    expect((await offered(table.findIndex(([line]) => line === 'mkt fees ')))[0]).toEqual(['IEX', 'NASDAQ', 'NYSE']);
    expect(await fishCompletions('mkt fees ', noCacheEnv)).toEqual([]);
  });

  it.skipIf(!HAS.fish)('describes a value by what it is, not by the list of every value', async () => {
    const [values, format, flag] = (await offers()).each.slice(table.length + settingLines.length, table.length + settingLines.length + describedLines.length);
    expect(values).toEqual(['Make', 'Open', 'Other', 'Routed', 'Take'].map((value) => [value, 'fee action']));
    expect(format).toEqual([['json', 'format']]);
    // The flag itself keeps its description.
    expect(flag).toEqual([['--fee-action', `one of: ${ENUM_FILTER_VALUES.fee_action.join(', ')}`]]);
  });

  it.skipIf(!HAS.fish)('works as the README installs it: ~/.config/fish/completions/mkt.fish, loaded on demand', async () => {
    const home = tempDir('mkt-fish-home-');
    const env = { ...user.env, HOME: home };
    await run('sh', ['-c', 'mkdir -p ~/.config/fish/completions && mkt completion fish > ~/.config/fish/completions/mkt.fish'], { env });
    const { stdout } = await run('fish', ['-c', 'complete -C $argv[1]', 'mkt results --fee-type '], { env });
    expect(stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0])).toEqual(['Equity', 'Option']);
  });

  it.skipIf(!HAS.fish)('completes file paths for -o', async () => {
    const { dir, each } = await offers();
    expect(each.at(-1)!.map(([value]) => value)).toEqual([join(dir, 'fees.parquet')]);
  });
});

describe('mkt completion, mkt __profiles and mkt __exchanges', () => {
  const recordingServer = useRecordingServers();

  it.each(['bash', 'zsh', 'fish'])('mkt completion %s prints the shipped script', async (shell) => {
    const run = await runInProcess(['completion', shell]);
    const shipped = { bash: 'mkt.bash', zsh: '_mkt', fish: 'mkt.fish' }[shell] as string;
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(readFileSync(join(COMPLETIONS, shipped), 'utf8'));
  });

  // A process: the pipe and bin/mkt.js's handling of EPIPE are what is tested.
  it('exits 0, quietly, when the reader goes away (mkt completion zsh | true)', async () => {
    const spawned = spawnMkt(['completion', 'zsh']);
    spawned.child.stdout.destroy();
    expect(await spawned.result).toMatchObject({ code: 0, stderr: '' });
  });

  it('takes the comma a completed --columns item leaves at the end', async () => {
    const run = await runInProcess(['--sandbox', 'results', '--limit', '1', '-f', 'csv', '--columns', 'exchange_name,fee_type,']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\r\n')[0]).toBe('exchange_name,fee_type');
  });

  it('rejects another shell with exit 2', async () => {
    const run = await runInProcess(['completion', 'tcsh']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bash, zsh, fish');
  });

  it('lists the profiles of both files, from MKT_CONFIG_DIR', async () => {
    const run = await runInProcess(['__profiles'], { env: { MKT_CONFIG_DIR: user.configDir } });
    expect(run).toMatchObject({ code: 0, stdout: 'ci\ndev\nprod\n', stderr: '' });
  });

  it('lists the profiles from $XDG_CONFIG_HOME/mkt', async () => {
    const xdg = tempDir('mkt-xdg-');
    mkdirSync(join(xdg, 'mkt'));
    writeFileSync(join(xdg, 'mkt', 'config.json'), JSON.stringify({ profiles: { eu: {} } }));
    const run = await runInProcess(['__profiles'], { env: { MKT_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg } });
    expect(run.stdout).toBe('eu\n');
  });

  it('prints nothing, and succeeds, when a file is broken', async () => {
    const dir = tempDir('mkt-broken-');
    writeFileSync(join(dir, 'config.json'), '{not json');
    const run = await runInProcess(['__profiles'], { env: { MKT_CONFIG_DIR: dir } });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it("lists the cached exchanges of the profile: --profile, then MKT_PROFILE, then 'default'", async () => {
    const env = { MKT_CACHE_DIR: user.cacheDir };
    expect(await runInProcess(['__exchanges'], { env })).toMatchObject({ code: 0, stdout: 'NYSE\nNASDAQ\nIEX\n', stderr: '' });
    expect((await runInProcess(['__exchanges', '--profile', 'prod'], { env })).stdout).toBe('CBOE\n');
    expect((await runInProcess(['__exchanges'], { env: { ...env, MKT_PROFILE: 'prod' } })).stdout).toBe('CBOE\n');
    expect((await runInProcess(['--profile', 'default', '__exchanges'], { env: { ...env, MKT_PROFILE: 'prod' } })).stdout).toBe('NYSE\nNASDAQ\nIEX\n');
  });

  it('prints nothing, and succeeds, without a cache or with a profile name mkt refuses', async () => {
    expect(await runInProcess(['__exchanges'], { env: { MKT_CACHE_DIR: tempDir('mkt-empty-cache-') } })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await runInProcess(['__exchanges', '--profile', '../prod'], { env: { MKT_CACHE_DIR: user.cacheDir } })).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('makes no request, with a cache or without one', async () => {
    const server = await recordingServer((_request, response) => response.end());
    const env = { MKT_BASE_URL: server.url, MKT_API_KEY: 'k'.repeat(20) };
    expect((await runInProcess(['__exchanges'], { env: { ...env, MKT_CACHE_DIR: user.cacheDir } })).stdout).toBe('NYSE\nNASDAQ\nIEX\n');
    expect(await runInProcess(['__exchanges'], { env: { ...env, MKT_CACHE_DIR: tempDir('mkt-empty-cache-') } })).toMatchObject({ code: 0, stdout: '' });
    expect(server.requests).toEqual([]);
  });

  it('keeps the hidden commands out of help', async () => {
    const run = await runInProcess(['--help']);
    expect(run.stdout).not.toContain('__exchanges');
    expect(run.stdout).not.toContain('__profiles');
    expect(run.stdout).not.toContain('__generate');
  });
});
