import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { startRecordingServer } from '../helpers/recording-server.js';

/** Every run goes to a server that records what reaches it: a usage error must send nothing. */
let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

async function mkt(args: readonly string[]) {
  const before = server.requests.length;
  const run = await runInProcess(args, { env: { MKT_API_KEY: 'e2e-key-0001-abcd', MKT_BASE_URL: server.url } });
  return { code: run.code, stdout: run.stdout, stderr: run.stderr, sent: server.requests.slice(before).map((request) => request.url) };
}

const usage = (message: string, hint: string) => ({ code: 2, stdout: '', stderr: `mkt: ${message}\n${hint}\n`, sent: [] });

describe('the <exchange> argument', () => {
  const hint = 'Give the identifier the service uses, e.g. NYSE or CBOE.';
  const period = ['--start-date', '2024-01-01', '--end-date', '2024-12-31'];

  it.each([
    [['fees', ''], 'exchange identifier "" is empty'],
    [['fees', '.'], 'exchange identifier "." is not an exchange identifier'],
    [['rules', '..'], 'exchange identifier ".." is not an exchange identifier'],
    [['order-types', 'NY/SE'], 'exchange identifier "NY/SE" holds whitespace, a control character or "/"'],
    [['fees', 'NY SE'], 'exchange identifier "NY SE" holds whitespace, a control character or "/"'],
    [['fees', 'NYSE\n'], 'exchange identifier "NYSE\\n" holds whitespace, a control character or "/"'],
    [['historical', 'NY\u001bSE', ...period], 'exchange identifier "NY\\u001bSE" holds whitespace, a control character or "/"'],
    [['fees', 'NY\u202eSE'], 'exchange identifier "NY\\u202eSE" holds whitespace, a control character or "/"'],
    [['fees', 'ＮＹＳＥ'], 'exchange identifier "ＮＹＳＥ" holds non-ASCII characters; did you mean NYSE?'],
    [['historical', 'ＣＢＯＥ', ...period], 'exchange identifier "ＣＢＯＥ" holds non-ASCII characters; did you mean CBOE?'],
    [['fees', 'NYSÉ'], 'exchange identifier "NYSÉ" holds non-ASCII characters'],
  ])('mkt %j is a usage error and sends nothing', async (args, message) => {
    expect(await mkt(args)).toEqual(usage(message, hint));
  });

  it('still sends a plain identifier', async () => {
    const run = await mkt(['fees', 'NYSE']);
    expect(run.sent).toEqual(['/api/v1/exchanges/NYSE/fees']);
  });
});

describe('filter values', () => {
  it.each([
    [['--fee-type', ''], '--fee-type: the value is empty', '--fee-type'],
    [['--fee-type', ','], '--fee-type: "," holds an empty value', '--fee-type'],
    [['--fee-type', 'Option,'], '--fee-type: "Option," holds an empty value', '--fee-type'],
    [['--exchange-name', ''], '--exchange-name: the value is empty', '--exchange-name'],
    [['--exchange', ' '], '--exchange: the value is empty', '--exchange'],
    [['--supplier-name', 'NYSE', '--supplier-name', ''], '--supplier-name: the value is empty', '--supplier-name'],
  ])('an empty value in %j is a usage error and sends nothing', async (flags, message, flag) => {
    expect(await mkt(['results', ...flags])).toEqual(
      usage(message, `Leave ${flag} out to match everything; write \\, for a comma inside a value.`),
    );
  });

  it('keeps a comma that a backslash escapes, for every list flag', async () => {
    const run = await mkt(['results', '--supplier-name', 'Nasdaq\\, Inc.', '--supplier-name', 'Cboe,NYSE\\, LLC', '--exchange-name', 'A\\,B']);
    expect(run).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    const query = new URL(run.sent[0] as string, server.url).searchParams;
    expect(query.getAll('supplier_name')).toEqual(['Nasdaq, Inc.', 'Cboe', 'NYSE, LLC']);
    expect(query.getAll('exchange_name')).toEqual(['A,B']);
  });

  it('says so in the help of results', async () => {
    const help = await runInProcess(['results', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("A backslash keeps a comma in a value: --supplier-name 'Nasdaq\\, Inc.'.");
  });
});
