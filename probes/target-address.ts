import { isIP } from 'node:net';
import type { ProbeContext } from './probe.js';
import { parseHostPort, type HostPort } from './target.js';

/** Where a `host:port` target points, once resolved through the egress policy. */
export interface TargetAddress extends HostPort {
  /** The address to connect to: allowed by the egress policy. */
  address: string;
  family: 4 | 6;
  /** The name to present for TLS (SNI and certificate check), or undefined for an IP literal. */
  servername: string | undefined;
}

/**
 * Resolves a `host[:port]` target through the egress policy, so that a refused address ends the
 * run before any driver opens a connection (and the result says why). Drivers are handed the
 * address; the host name stays for TLS.
 */
export async function resolveTarget(target: string, defaultPort: number, context: ProbeContext): Promise<TargetAddress> {
  const { host, port } = parseHostPort(target, defaultPort);
  const { address, family } = await context.egress.resolve(host);
  return { host, port, address, family, servername: isIP(host) ? undefined : host };
}
