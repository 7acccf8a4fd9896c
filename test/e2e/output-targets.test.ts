import { execFileSync } from 'node:child_process';
import { createReadStream, lstatSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

// Issue 14, point 1: -o never replaces something that is not a regular file.
const sandbox = useSandbox({ records: 50 });
const env = () => ({ env: { MKT_BASE_URL: sandbox.current.url, MKT_API_KEY: sandbox.current.keys.api_key } });

describe('-o to what is not a regular file', () => {
  it('writes straight into /dev/null, which stays a character device', async () => {
    const run = await runInProcess(['results', '--limit', '5', '-f', 'csv', '-o', '/dev/null'], env());
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync('/dev').filter((name) => name.startsWith('.null.tmp-'))).toEqual([]);
  });

  it('writes straight into a named pipe, for its reader', async () => {
    const fifo = join(tempDir('mkt-fifo-'), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const chunks: Buffer[] = [];
    const reading = new Promise<string>((resolve, reject) => {
      createReadStream(fifo).on('data', (chunk) => chunks.push(chunk as Buffer)).on('end', () => resolve(Buffer.concat(chunks).toString())).on('error', reject);
    });
    const run = await runInProcess(['results', '--limit', '3', '-f', 'ndjson', '--columns', 'id', '-o', fifo], env());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect((await reading).trimEnd().split('\n')).toHaveLength(3);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('replaces the file a symbolic link points to, and the link stays', async () => {
    const dir = tempDir('mkt-link-');
    writeFileSync(join(dir, 'real.csv'), 'old\n');
    symlinkSync('real.csv', join(dir, 'link.csv'));
    const run = await runInProcess(['results', '--limit', '2', '-o', join(dir, 'link.csv')], env());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toMatch(/^id,exchange_name,/);
    expect(readdirSync(dir).sort()).toEqual(['link.csv', 'real.csv']);
  });
});
