import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate and its key, PEM. */
export interface KeyPair {
  cert: string;
  key: string;
}

/** A private CA and leaf certificates for localhost and 127.0.0.1 that it signed. */
export interface TestCertificates {
  ca: string;
  /** Valid for 90 days. */
  valid: KeyPair;
  /** Valid, but for 5 more days only. */
  expiringSoon: KeyPair;
  /** Expired yesterday. */
  expired: KeyPair;
  /** Self-signed, valid, not signed by the CA. */
  selfSigned: KeyPair;
}

/** Generates the certificates with Debian's `openssl` (P-256 keys, so it is quick). */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'svc-probe-certs-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  try {
    writeFileSync(join(dir, 'ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    openssl('req', '-x509', ...newKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=svc probe test CA');
    const leaf = (name: string, days: string): KeyPair => {
      openssl('req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', '/CN=localhost');
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        days,
        '-extfile',
        'ext',
        '-out',
        `${name}.pem`,
      );
      return { cert: read(`${name}.pem`), key: read(`${name}.key`) };
    };
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      'self.key',
      '-out',
      'self.pem',
      '-days',
      '30',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    );
    return {
      ca: read('ca.pem'),
      valid: leaf('valid', '90'),
      expiringSoon: leaf('soon', '5'),
      // A negative validity makes openssl write a notAfter one day before now.
      expired: leaf('expired', '-1'),
      selfSigned: { cert: read('self.pem'), key: read('self.key') },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
