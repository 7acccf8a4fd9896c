import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Responder, sendJson, useRecordingServers } from '../helpers/recording-server.js';
import { runInProcess, type InProcessOptions } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 35, point 9: --csv-safe, CSV for a spreadsheet, after OWASP's advice on CSV injection.
const startServer = useRecordingServers();

/** A fee schedule whose text (a key among it) a spreadsheet would take for formulas. */
const HOSTILE_FEES = {
  exchange: 'NYSE',
  '=HYPERLINK("http://x.test","y")': 'key',
  fee_schedule: { maker_fee: -0.0038, taker_fee: 0.003, note: '=1+1', at: '@SUM(A1:A9)', plus: '+1', tab: '\t=1', cr: '\r=1', plain: 'a=b', comma: '=1,2' },
};
const HEADER = 'exchange,"\'=HYPERLINK(""http://x.test"",""y"")",fee_schedule.maker_fee,fee_schedule.taker_fee,fee_schedule.note,fee_schedule.at,fee_schedule.plus,fee_schedule.tab,fee_schedule.cr,fee_schedule.plain,fee_schedule.comma\r\n';

async function against(respond: Responder, args: string[], options: InProcessOptions = {}) {
  const server = await startServer(respond);
  const run = await runInProcess(args, { ...options, env: { MKT_BASE_URL: server.url, MKT_API_KEY: 'k' } });
  return { ...run, requests: server.requests.length };
}

const hostile: Responder = (_request, response) => sendJson(response, 200, HOSTILE_FEES);

describe('--csv-safe', () => {
  it("writes a ' before every cell, header and negative numbers included, that starts with =, +, -, @, a tab or a CR", async () => {
    const run = await against(hostile, ['fees', 'NYSE', '-f', 'csv', '--csv-safe']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`${HEADER}NYSE,key,'-0.0038,0.003,'=1+1,'@SUM(A1:A9),'+1,'\t=1,"'\r=1",a=b,"'=1,2"\r\n`);
  });

  it('leaves CSV exact without it', async () => {
    const run = await against(hostile, ['fees', 'NYSE', '-f', 'csv']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\r\n')[1]).toBe('NYSE,key,-0.0038,0.003,=1+1,@SUM(A1:A9),+1,\t=1,"\r=1",a=b,"=1,2"');
  });

  it('takes csv from the file name, as -f would', async () => {
    const path = join(tempDir('mkt-csv-safe-'), 'fees.csv');
    const run = await against(hostile, ['fees', 'NYSE', '-o', path, '--csv-safe']);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(path, 'utf8').startsWith(HEADER)).toBe(true);
  });

  it.each([
    ['json, on a pipe by default', [], {}],
    ['ndjson', ['-f', 'ndjson'], {}],
    ['table, on a terminal by default', [], { stdout: { isTTY: true, columns: 100 } }],
    ['parquet', ['-o', 'out.parquet'], {}],
  ] satisfies [string, string[], InProcessOptions][])('is a usage error with %s, before any request', async (what, args, options) => {
    const format = what.split(',')[0];
    const run = await against(hostile, ['fees', 'NYSE', '--csv-safe', ...args], options);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `mkt: --csv-safe applies to csv, not ${format}\nAdd -f csv (or -o FILE.csv), or leave --csv-safe out.\n`,
      requests: 0,
    });
  });
});
