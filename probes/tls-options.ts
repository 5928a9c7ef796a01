import { rootCertificates, type ConnectionOptions } from 'node:tls';
import type { EgressPolicy } from './egress.js';

const trustStores = new WeakMap<EgressPolicy, string[] | undefined>();

/** The certificate authorities probes trust under a policy: Node's roots plus the policy's extras. */
function trustedAuthorities(egress: EgressPolicy): string[] | undefined {
  if (!trustStores.has(egress)) {
    const extra = egress.options.extraCaCertificates;
    trustStores.set(egress, extra?.length ? [...rootCertificates, ...extra] : undefined);
  }
  return trustStores.get(egress);
}

/** The TLS options of a probe's connection: verification (unless `insecure`) against the trusted authorities. */
export function tlsConnectionOptions(egress: EgressPolicy, insecure: boolean): ConnectionOptions {
  const ca = trustedAuthorities(egress);
  return { rejectUnauthorized: !insecure, ...(ca ? { ca } : {}) };
}
