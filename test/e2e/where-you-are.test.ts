import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';

// Issue 15, point 4: one page says where you are, on a terminal's stderr only.
const sandbox = useSandbox({ records: 3000 });
const env = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });
const terminal = { isTTY: true, columns: 100 };

describe('one page of results', () => {
  it.each([
    // Issue 39, point 3: the flag counts from 0 and the footer from 1, so it names the next page as the flag takes it.
    [['--page-size', '3'], 'page 1 of 1,000 · next: --page-number 1 · --all for every page\n'],
    [['--page-size', '3', '--page-number', '2'], 'page 3 of 1,000 · next: --page-number 3 · --all for every page\n'],
    [['--page-size', '2', '--page-number', '1499'], 'page 1,500 of 1,500 · --all for every page\n'],
    [['--exchange-name', 'IEX', '--fee-type', 'Equity', '--page-size', '100', '--latest-only'], 'page 1 of 1\n'],
  ])('ends with one line on a terminal: %j', async (args, line) => {
    const run = await runInProcess(['results', '-f', 'json', ...args], { env: env(), stderr: terminal });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(line);
  });

  it.each([
    ['json', ['-f', 'json'], '[]\n'],
    ['a table', ['--no-color'], ''],
  ])('says which page is the last for a page past the end, with no rows and exit 0 (%s)', async (_format, flags, stdout) => {
    const run = await runInProcess(['results', '--page-size', '6', '--page-number', '500', ...flags], { env: env(), stdout: terminal, stderr: terminal });
    expect(run).toMatchObject({ code: 0, stdout, stderr: 'page 501 is past the end: the last is --page-number 499\n' });
  });

  it('says "no results match" when nothing does, and still writes the empty list to stdout', async () => {
    const run = await runInProcess(['results', '--exchange-name', 'NOPE', '-f', 'json'], { env: env(), stderr: terminal });
    expect(run).toMatchObject({ code: 0, stdout: '[]\n', stderr: 'no results match\n' });
  });

  it('says so for an empty walk too', async () => {
    const run = await runInProcess(['results', '--all', '--exchange-name', 'NOPE', '-f', 'csv', '--columns', 'id'], { env: env(), stderr: terminal });
    expect(run).toMatchObject({ code: 0, stdout: 'id\r\n', stderr: 'no results match\n' });
  });

  it.each([
    ['stderr is not a terminal', [], {}],
    ['--quiet', ['--quiet'], { stderr: terminal }],
  ])('says nothing when %s', async (_case, flags, shape) => {
    for (const args of [['--page-size', '3'], ['--exchange-name', 'NOPE']]) {
      const run = await runInProcess(['results', '-f', 'json', ...args, ...flags], { env: env(), ...shape });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
    }
  });
});

describe('a --columns name that is not a field (point 9)', () => {
  it('suggests the closest field, before anything is sent', async () => {
    const run = await runInProcess(['results', '--columns', 'exchange_name,fee_amout'], { env: { ...env(), MKT_BASE_URL: 'http://127.0.0.1:1' } });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('mkt: unknown column "fee_amout" in --columns; did you mean fee_amount?');
  });
});
