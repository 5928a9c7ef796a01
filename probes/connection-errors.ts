import { formatHostPort } from './target.js';
import { ProbeFailure } from './probe.js';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connect ECONNREFUSED',
  ECONNRESET: 'connection reset by',
  EPIPE: 'connection closed by',
  ETIMEDOUT: 'connect ETIMEDOUT',
  EHOSTUNREACH: 'host unreachable:',
  ENETUNREACH: 'network unreachable:',
  EADDRNOTAVAIL: 'address not available:',
};

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

/**
 * A short, safe message for a failure below the protocol (refused, reset, TLS), built from the
 * error's code and the address only, never from a driver's text (which may quote a connection
 * string). Undefined when the error is not one of those, so the probe reads its own protocol.
 */
export function networkFailure(error: unknown, host: string, port: number): ProbeFailure | undefined {
  const seen = new Set<unknown>();
  // Drivers wrap the socket's error (cause, errors[] of an AggregateError, originalError...).
  for (let current = error; current && typeof current === 'object' && !seen.has(current); ) {
    seen.add(current);
    const code = (current as NodeJS.ErrnoException).code;
    if (code && NETWORK_CODES[code]) return new ProbeFailure(`${NETWORK_CODES[code]} ${formatHostPort({ host, port })}`);
    if (code && TLS_CODE.test(code)) return new ProbeFailure(`TLS handshake with ${formatHostPort({ host, port })} failed: ${code}`);
    if (code === 'EGRESS_REFUSED' && current instanceof Error) return new ProbeFailure(current.message);
    const inner = current as { cause?: unknown; errors?: unknown[]; originalError?: unknown };
    current = inner.cause ?? inner.originalError ?? inner.errors?.[0];
  }
  return undefined;
}
