import type { ItemScope } from '../converter.js';
import { text, type Attributes } from './attributes.js';

/** A host (IPv6 without brackets) and the port written beside it, if any. */
export interface HostAndPort {
  readonly host: string;
  readonly port?: number;
}

function port(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,5}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= 1 && number <= 65_535 ? number : undefined;
}

/**
 * The host of a monitor's `url`, which for host kinds is a host name or address, sometimes
 * written as a URL or with a port. Undefined when nothing host-like is there.
 */
export function hostOf(url: string | undefined): HostAndPort | undefined {
  if (url === undefined) return undefined;
  const value = url.trim();
  if (value.includes('://')) {
    try {
      const parsed = new URL(value);
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      return host === '' ? undefined : { host, ...(parsed.port === '' ? {} : { port: Number(parsed.port) }) };
    } catch {
      return undefined;
    }
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) return { host: bracketed[1]!, ...(port(bracketed[2]) === undefined ? {} : { port: port(bracketed[2])! }) };
  if (value.split(':').length > 2) return { host: value };
  const [host = '', written] = value.split('/')[0]!.split(':');
  if (host === '') return undefined;
  const parsedPort = port(written);
  return parsedPort === undefined ? { host } : { host, port: parsedPort };
}

/** `host[:port]`, with IPv6 addresses in brackets. */
export function hostPort(host: string, portNumber: number | undefined): string {
  const written = host.includes(':') ? `[${host}]` : host;
  return portNumber === undefined ? written : `${written}:${portNumber}`;
}

/**
 * The port to check from the `port` attribute, which is text and may list several
 * ("25,465,587"): the first one is checked and the others are reported as left out.
 */
export function portOf(attributes: Attributes, scope: ItemScope): number | undefined {
  const written = text(attributes, 'port');
  if (written === undefined) return undefined;
  const entries = written.split(/[\s,;]+/).filter((entry) => entry !== '');
  const ports = entries.map(port);
  const [first] = ports;
  if (first === undefined || ports.some((entry) => entry === undefined)) {
    scope.warn('VALUE_ADJUSTED', `${JSON.stringify(written)} is not a port or a list of ports; ${first ?? 'no port'} is used`, 'port');
  } else if (ports.length > 1) {
    scope.warn(
      'VALUE_ADJUSTED',
      `a check watches one port: ${first} is checked and ${entries.slice(1).join(', ')} left out (add a check per port if each matters)`,
      'port',
    );
  }
  return first;
}
