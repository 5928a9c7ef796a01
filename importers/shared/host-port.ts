/**
 * An address as `host:port` with `port` filled in when it names none: `host`, `[v6]`,
 * `host:port` or `[v6]:port`. Undefined for anything else (a bare IPv6 address, more than one
 * colon), which is left to the catalog to refuse.
 */
export function withDefaultPort(address: string, port: number): string | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d*))?$/.exec(address);
  if (!match) return undefined;
  return `${match[1]}:${match[2] || port}`;
}
