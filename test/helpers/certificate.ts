import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/** A self-signed certificate for 127.0.0.1, made with openssl (see `installed('openssl')`): the PEM texts and the certificate's file. */
export function selfSignedCertificate(): { key: Buffer; cert: Buffer; certFile: string } {
  return certificateWithKey(['rsa:2048']);
}

/** As selfSignedCertificate, with an elliptic-curve key (P-256), which openssl makes at once where an RSA key takes a search for primes. */
export function selfSignedEcCertificate(): { key: Buffer; cert: Buffer; certFile: string } {
  return certificateWithKey(['ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1']);
}

function certificateWithKey(newKey: readonly string[]): { key: Buffer; cert: Buffer; certFile: string } {
  const dir = tempDir('mkt-tls-');
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', ...newKey, '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile };
}
