import type { CheckTypeName } from '../../checks/index.js';

/** How an endpoint is checked, decided by its URL scheme (or its `dns` block). */
export interface EndpointKind {
  type: CheckTypeName;
  /** The catalog target: the URL for http and websocket, host[:port] or host otherwise. */
  target: string;
  /** The scheme as written, lowercased (`https`, `tcp`, `starttls`, ...). */
  scheme: string;
  /** User name found in the URL's user information, when any. */
  user?: string;
  /** Whether the URL's user information held a password (it is never kept). */
  hadPassword: boolean;
  /** Whether the check connects over TLS (https, wss, grpcs, tls, starttls). */
  secure: boolean;
}

/** Why an endpoint has no check kind: it is skipped with this code and message. */
export interface NoKind {
  code: 'UNSUPPORTED_TYPE' | 'INVALID_ITEM';
  message: string;
}

const URL_PARTS = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/is;

const SCHEMES: Record<string, { type: CheckTypeName; target: 'url' | 'host-port' | 'host'; secure: boolean }> = {
  http: { type: 'http', target: 'url', secure: false },
  https: { type: 'http', target: 'url', secure: true },
  ws: { type: 'websocket', target: 'url', secure: false },
  wss: { type: 'websocket', target: 'url', secure: true },
  tcp: { type: 'tcp', target: 'host-port', secure: false },
  udp: { type: 'udp', target: 'host-port', secure: false },
  tls: { type: 'tls', target: 'host-port', secure: true },
  starttls: { type: 'tls', target: 'host-port', secure: true },
  grpc: { type: 'grpc', target: 'host-port', secure: false },
  grpcs: { type: 'grpc', target: 'host-port', secure: true },
  ssh: { type: 'ssh', target: 'host-port', secure: false },
  icmp: { type: 'icmp', target: 'host', secure: false },
};

function splitAuthority(authority: string): { host: string; user?: string; hadPassword: boolean } {
  const at = authority.lastIndexOf('@');
  if (at < 0) return { host: authority, hadPassword: false };
  const info = authority.slice(0, at);
  const colon = info.indexOf(':');
  const rawUser = colon < 0 ? info : info.slice(0, colon);
  let user = rawUser;
  try {
    user = decodeURIComponent(rawUser);
  } catch {
    // keep the raw spelling
  }
  return { host: authority.slice(at + 1), ...(user === '' ? {} : { user }), hadPassword: colon >= 0 };
}

function hostOnly(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 || host.indexOf(':') !== colon ? host : host.slice(0, colon);
}

/**
 * The check kind of a Gatus endpoint URL. Credentials in the URL are taken out (the caller
 * warns about them); the target keeps everything else as written.
 */
export function endpointKind(url: string): EndpointKind | NoKind {
  const parts = URL_PARTS.exec(url.trim());
  if (!parts) {
    return { code: 'INVALID_ITEM', message: `the url ${JSON.stringify(url)} has no scheme (such as https://, tcp:// or icmp://)` };
  }
  const [, rawScheme, authority, rest] = parts;
  const scheme = rawScheme.toLowerCase();
  const rule = SCHEMES[scheme];
  if (!rule) {
    return {
      code: 'UNSUPPORTED_TYPE',
      message: `${scheme}:// endpoints have no equivalent check type; the endpoint was skipped`,
    };
  }
  const { host, user, hadPassword } = splitAuthority(authority);
  const target = rule.target === 'url' ? `${rawScheme}://${host}${rest}` : rule.target === 'host' ? hostOnly(host) : host;
  return { type: rule.type, target, scheme, ...(user === undefined ? {} : { user }), hadPassword, secure: rule.secure };
}

/** The resolver of a DNS endpoint as host[:port]: Gatus writes `8.8.8.8`, `8.8.8.8:53` or `udp://8.8.8.8:53`. */
export function dnsResolver(url: string): string {
  const parts = URL_PARTS.exec(url.trim());
  return parts ? splitAuthority(parts[2]).host : url.trim();
}
