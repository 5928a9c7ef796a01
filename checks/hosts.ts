// Host, port and URL parsing shared by target rules and by config fields that name other
// servers (a DNS resolver, extra Kafka brokers). Built on the WHATWG URL parser rather than
// node:net so that the catalog runs anywhere a browser or Node runs.

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i;

/** Whether `value` is a dotted-quad IPv4 address. */
export function isIPv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

/** Whether `value` is an IPv6 address without brackets. */
export function isIPv6(value: string): boolean {
  if (!value.includes(':') || !/^[0-9a-f:.]+$/i.test(value)) return false;
  try {
    new URL(`http://[${value}]/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `value` is a DNS host name: labels of letters, digits, dashes and underscores
 * (underscores appear in SRV names and container networks), at most 253 characters. A value
 * made only of digits and dots must be a real IPv4 address instead.
 */
export function isHostName(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  if (/^[\d.]+$/.test(value)) return false;
  const labels = value.endsWith('.') ? value.slice(0, -1).split('.') : value.split('.');
  return labels.every((label) => LABEL.test(label));
}

/** Whether `value` is a host name, an IPv4 address or a bare IPv6 address. */
export function isHost(value: string): boolean {
  return isHostName(value) || isIPv4(value) || isIPv6(value);
}

/** A problem found in a `host[:port]` string, or undefined when it is well formed. */
export function hostPortProblem(value: string, portRequired: boolean): string | undefined {
  if (value.includes('://')) return 'expected host:port, not a URL';
  let host: string;
  let port: string | undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return 'unclosed "[" around an IPv6 address';
    host = value.slice(1, end);
    const rest = value.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return 'expected ":port" after the IPv6 address';
    port = rest === '' ? undefined : rest.slice(1);
    if (!isIPv6(host)) return `"${host}" is not an IPv6 address`;
  } else {
    const colons = value.split(':').length - 1;
    if (colons > 1) return 'write an IPv6 address in brackets, e.g. [2001:db8::1]:443';
    [host, port] = colons === 1 ? (value.split(':') as [string, string]) : [value, undefined];
    if (!isHostName(host) && !isIPv4(host)) return `"${host}" is not a valid host name or IP address`;
  }
  if (port === undefined) return portRequired ? 'a port is required (host:port)' : undefined;
  return portProblem(port);
}

function portProblem(port: string): string | undefined {
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    return `"${port}" is not a port between 1 and 65535`;
  }
  return undefined;
}

/**
 * A problem found in an absolute URL whose scheme must be one of `schemes` (without the
 * colon), or undefined. Credentials in the URL are refused: secrets never live in a check.
 */
export function urlProblem(value: string, schemes: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `expected an absolute URL (${schemes.map((s) => `${s}://`).join(', ')})`;
  }
  const scheme = url.protocol.slice(0, -1);
  if (!schemes.includes(scheme)) {
    return `the URL scheme must be ${schemes.join(' or ')}, not ${scheme}`;
  }
  if (url.hostname === '') return 'the URL has no host';
  if (url.username !== '' || url.password !== '') {
    return 'credentials do not belong in the URL: secrets are never stored in a check';
  }
  return undefined;
}
