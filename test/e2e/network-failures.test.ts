import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/run-in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const KEY = 'network-test-key-5555';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function listen(server: ReturnType<typeof createHttpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('network failures: exit 1, one line naming the cause and the host', () => {
  it('DNS: a host that does not resolve is not retried', async () => {
    const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: 'https://mkt-test.invalid', MKT_API_KEY: KEY } });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    // ENOTFOUND is final; a DNS server that times out (EAI_AGAIN) is retried first.
    expect(run.stderr).toMatch(/^mkt: (cannot resolve host mkt-test\.invalid|gave up after \d+ tries: cannot resolve host mkt-test\.invalid \(DNS lookup timed out\))\n$/);
  });

  it('TLS: https to a port that speaks plain http', async () => {
    const server = createHttpServer((_request, response) => response.end('{}'));
    const host = await listen(server);
    try {
      const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: `https://${host}`, MKT_API_KEY: KEY } });
      expect(run).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `mkt: TLS error with ${host}: wrong version number\n`
          + 'Check the base URL is https on an https port, and that its certificate is trusted.\n',
      });
    } finally {
      server.close();
    }
  });

  it.skipIf(!hasOpenssl())('TLS: a self-signed certificate (skipped where openssl is absent)', async () => {
    const dir = tempDir('mkt-tls-');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    const server = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_request, response) => response.end('{}'),
    );
    const host = await listen(server as unknown as ReturnType<typeof createHttpServer>);
    try {
      const run = await runInProcess(['fees', 'NYSE'], { env: { MKT_BASE_URL: `https://${host}`, MKT_API_KEY: KEY } });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `mkt: TLS error with ${host}: self-signed certificate\n`
          + "Check that the certificate is the service's; if a private CA signed it, set NODE_EXTRA_CA_CERTS to the CA's file.\n",
      );
    } finally {
      server.close();
    }
  });
});
