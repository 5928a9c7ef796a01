import { parse } from 'tldts';

/**
 * The registrable domain of an endpoint's target (a URL, `host:port` or a host): the name one
 * registers, `example.co.uk` for `https://api.example.co.uk/health`, by the public suffix list.
 * Undefined for an IP address, a name under no public suffix (`localhost`, `db.internal`) or a
 * target that is not a name at all.
 */
export function registrableDomain(target: string): string | undefined {
  let host: string;
  try {
    host = /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? new URL(target).hostname : target.replace(/:\d+$/, '');
  } catch {
    return undefined;
  }
  const parsed = parse(host);
  if (parsed.isIp || !parsed.isIcann || !parsed.domain) return undefined;
  return parsed.domain;
}
