import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';

// Issue 15, point 4: one page says where you are, on a terminal's stderr only.
const sandbox = useSandbox({ records: 3000 });
const env = () => ({ MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key });
const terminal = { isTTY: true, columns: 100 };

describe('one page of results', () => {
  it.each([
    [['--page-size', '3'], 'page 1 of 1,000 · 3 of 3,000 records · --all for every page\n'],
    [['--page-size', '3', '--page-number', '2'], 'page 3 of 1,000 · 3 of 3,000 records · --all for every page\n'],
    [['--exchange-name', 'IEX', '--fee-type', 'Equity', '--page-size', '100', '--latest-only'], /^page 1 of 1 · (\d+) of \1 records\n$/],
  ])('ends with one line on a terminal: %j', async (args, line) => {
    const run = await runInProcess(['results', '-f', 'json', ...args], { env: env(), stderr: terminal });
    expect(run.code).toBe(0);
    if (typeof line === 'string') expect(run.stderr).toBe(line);
    else expect(run.stderr).toMatch(line);
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
