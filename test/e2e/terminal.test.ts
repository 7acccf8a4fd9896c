import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/text-width.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempConfigDir } from '../helpers/run-mkt.js';
import { hasScript, runOnTerminal as runOnPty } from '../helpers/terminal.js';
import { useSandbox } from '../helpers/sandbox.js';

/*
 * Terminal manners, on a real pseudo-terminal (util-linux `script`) and on pipes: colour,
 * truncation and the spinner on a terminal; plain, complete output everywhere else.
 */

const onTerminal = hasScript ? it : it.skip;
const SKIPPED = hasScript ? '' : ' (SKIPPED: script from util-linux is not installed)';

// Enough records for a walk of several pages (100 a page), which the spinner counts.
const sandbox = useSandbox({ records: 250 });
const serviceEnv = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });

const ESC = '\u001b';

/** On a pseudo-terminal, against the sandbox. */
const runOnTerminal = (args: string[], options: { columns: number; env?: Record<string, string>; pipeTo?: string[] }): Promise<string> =>
  runOnPty(args, { ...options, env: { ...serviceEnv(), ...options.env } });

/**
 * In this process, with stdout and stderr shaped as a terminal `columns` wide: for what follows
 * from the width and the colour settings, once a real terminal has shown that mkt reads them.
 */
async function runAsOnTerminal(args: string[], options: { columns: number; env?: Record<string, string> }): Promise<string> {
  const shape = { isTTY: true, columns: options.columns };
  const run = await runInProcess(args, { env: { ...serviceEnv(), ...options.env }, stdout: shape, stderr: shape });
  expect(run.code).toBe(0);
  return run.stderr + run.stdout;
}

/**
 * In this process, with stdout and stderr one stream shaped as a terminal `columns` wide, as a
 * terminal shows both, in the order they were written: for what mkt writes where and when once
 * a real terminal has shown its spinner ('--all shows a spinner on stderr').
 */
async function runAsOnOneTerminal(args: string[], columns: number): Promise<string> {
  const { code, stdout } = await runInProcess(args, { env: serviceEnv(), stdout: { isTTY: true, columns }, stderrIntoStdout: true });
  expect(code).toBe(0);
  return stdout;
}

const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
const tableLines = (text: string): string[] => stripAnsi(text).split('\n').filter((line) => /^[┌│├└]/.test(line));
/** The lines of a table but the detail under each row (a line across it, of no cells). */
const gridLines = (text: string): string[] => tableLines(text).filter((line) => line.split('│').length !== 3);

describe(`on a terminal${SKIPPED}`, () => {
  onTerminal('a results table fits the width, free text cut with …, in colour', async () => {
    const output = await runOnTerminal(['results', '--page-size', '5'], { columns: 70 });
    const lines = tableLines(output);
    expect(gridLines(output)).toHaveLength(5 + 4);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(70);
    expect(lines.slice(3).some((line) => line.includes('…'))).toBe(true);
    expect(output).toContain(`${ESC}[1m`); // bold headers
  });

  it('the same table at another width fits that width', async () => {
    const lines = tableLines(await runAsOnTerminal(['results', '--page-size', '5'], { columns: 100 }));
    const widest = Math.max(...lines.map(displayWidth));
    expect(widest).toBeLessThanOrEqual(100);
    expect(widest).toBeGreaterThan(60);
  });

  it('--no-color leaves the colour out, and still fits the width', async () => {
    const output = await runAsOnTerminal(['results', '--page-size', '5', '--no-color'], { columns: 70 });
    expect(output).not.toContain(ESC);
    expect(output).toContain('…');
  });

  it('NO_COLOR wins over FORCE_COLOR', async () => {
    const output = await runAsOnTerminal(['results', '--page-size', '5'], { columns: 70, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(output).not.toContain(ESC);
    expect(gridLines(output)).toHaveLength(9);
  });

  onTerminal('--all shows a spinner on stderr, then replaces it with a one-line summary', async () => {
    const file = join(tempConfigDir(), 'fees.json');
    const output = await runOnTerminal(['results', '--all', '-o', file], { columns: 80 });
    expect(stripAnsi(output)).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] page 3\/3 · 250 records/);
    // What stays on the screen is what follows the last clearing of the line.
    const shown = stripAnsi(output.slice(output.lastIndexOf(`${ESC}[0K`) + `${ESC}[0K`.length));
    expect(shown).toMatch(new RegExp(`^250 records from 3 pages in \\d+\\.\\d s to ${file.replaceAll('.', '\\.')}\\n$`));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(250);
  });

  const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

  it('NDJSON to the terminal gets no spinner among its lines', async () => {
    const output = stripAnsi(await runAsOnOneTerminal(['results', '--all', '-f', 'ndjson', '--columns', 'id'], 80));
    expect(output).not.toMatch(SPINNER);
    expect(output.split('\n').filter((line) => line.startsWith('{"id":'))).toHaveLength(250);
  });

  onTerminal('piped into head, no spinner lands in the data and no count is claimed', async () => {
    const output = stripAnsi(await runOnTerminal(['results', '--all', '-f', 'ndjson', '--columns', 'id'], { columns: 80, pipeTo: ['head', '-3'] }));
    expect(output).not.toMatch(SPINNER);
    expect(output).not.toMatch(/records from/);
    expect(output.trimEnd().split('\n')).toHaveLength(3);
  });

  it('a table is drawn after the spinner is gone, then the summary', async () => {
    const output = stripAnsi(await runAsOnOneTerminal(['results', '--all', '--columns', 'id'], 80));
    const table = output.slice(output.indexOf('┌'));
    expect(table).not.toMatch(SPINNER);
    expect(table.split('\n')[0]).toMatch(/^┌─+┐$/);
    expect(table.trimEnd().split('\n').at(-1)).toMatch(/^250 records from 3 pages in \d+\.\d s$/);
  });

  it('--quiet shows nothing at all', async () => {
    const file = join(tempConfigDir(), 'fees.json');
    expect(await runAsOnOneTerminal(['results', '--all', '--quiet', '-o', file], 80)).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(250);
  });
});

// In-process, stdout and stderr are memory streams with no isTTY: what mkt sees of a pipe.
describe('on pipes', () => {
  it.each([['table'], ['ndjson'], ['csv']])('--all -f %s writes no escape sequence, no \\r and no spinner', async (format) => {
    const run = await runInProcess(['results', '--all', '-f', format], { env: serviceEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stderr).toBe('');
    if (format !== 'csv') expect(run.stdout).not.toContain('\r'); // CSV ends its records with \r\n (RFC 4180)
  });

  it('cuts nothing from a table', async () => {
    const table = await runInProcess(['results', '--page-size', '5', '-f', 'table', '--columns', 'exchange_name,fee_category,fee_conditions'], { env: serviceEnv() });
    const json = await runInProcess(['results', '--page-size', '5', '--columns', 'exchange_name,fee_category,fee_conditions'], { env: serviceEnv() });
    expect(table.stdout).not.toContain('…');
    for (const record of JSON.parse(json.stdout) as Record<string, string | null>[]) {
      for (const value of Object.values(record)) if (value) expect(table.stdout).toContain(value);
    }
  });

  it('FORCE_COLOR colours even a pipe, and NO_COLOR still wins over it', async () => {
    const forced = await runInProcess(['results', '--page-size', '2', '-f', 'table'], { env: { ...serviceEnv(), FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}[1m`);
    const both = await runInProcess(['results', '--page-size', '2', '-f', 'table'], { env: { ...serviceEnv(), FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(both.stdout).not.toContain(ESC);
  });

  it('error messages carry no colour on a pipe', async () => {
    const run = await runInProcess(['fees', 'NOPE'], { env: serviceEnv() });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^mkt: /);
    expect(run.stderr).not.toContain(ESC);
  });
});
