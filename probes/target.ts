/** A host and port taken from a check's `host:port` target. */
export interface HostPort {
  /** The host name or address, IPv6 without its brackets. */
  host: string;
  port: number;
}

/**
 * Splits a `host:port` target (IPv6 in brackets, `[::1]:53`) as the catalog validated it; the
 * port is `defaultPort` when the target has none.
 */
export function parseHostPort(target: string, defaultPort?: number): HostPort {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(target);
  if (bracketed) return withPort(bracketed[1], bracketed[2], defaultPort);
  const colons = target.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = target.split(':');
    return withPort(host, port, defaultPort);
  }
  // No colon, or a bare IPv6 address: no port given.
  return withPort(target, undefined, defaultPort);
}

function withPort(host: string, port: string | undefined, defaultPort: number | undefined): HostPort {
  const value = port === undefined ? defaultPort : Number(port);
  if (value === undefined || !Number.isInteger(value) || value < 1 || value > 65_535) {
    throw new Error(`the target needs a port between 1 and 65535`);
  }
  return { host, port: value };
}

/** `host:port` for messages, IPv6 in brackets. */
export function formatHostPort({ host, port }: HostPort): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
