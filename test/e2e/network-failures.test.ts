import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { selfSignedEcCertificate } from '../helpers/certificate.js';
import { installed } from '../helpers/installed.js';
import { runInProcess } from '../helpers/run-in-process.js';

const KEY = 'network-test-key-5555';


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

  it.skipIf(!installed('openssl'))('TLS: a self-signed certificate (skipped where openssl is absent)', async () => {
    const certificate = selfSignedEcCertificate();
    const server = createHttpsServer(
      { key: certificate.key, cert: certificate.cert },
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
