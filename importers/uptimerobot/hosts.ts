import type { ItemScope } from '../shared/item-scope.js';

const WITH_SCHEME = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i;

function withoutPort(authority: string): string {
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1) || host;
  const colon = host.indexOf(':');
  return colon >= 0 && colon === host.lastIndexOf(':') ? host.slice(0, colon) : host;
}

/**
 * The host a ping or port monitor watches. Its `url` is usually a bare host or address, but
 * a full URL is common too; then the host is taken from it with a `VALUE_ADJUSTED` warning.
 */
export function monitorHost(url: string, scope: ItemScope, field: string): string {
  const trimmed = url.trim();
  const parts = WITH_SCHEME.exec(trimmed);
  if (parts) {
    const host = withoutPort(parts[2]);
    scope.warn('VALUE_ADJUSTED', `the url ${JSON.stringify(trimmed)} is a URL; its host ${JSON.stringify(host)} is watched`, field);
    return host;
  }
  const bare = trimmed.split('/')[0];
  return bare.includes(':') && !bare.startsWith('[') && bare.indexOf(':') === bare.lastIndexOf(':') ? withoutPort(bare) : bare;
}

/** The URL an HTTP monitor requests; a URL without a scheme gets http:// (as the tool did) with a warning. */
export function monitorUrl(url: string, scope: ItemScope, field: string): string {
  const trimmed = url.trim();
  if (trimmed === '' || WITH_SCHEME.test(trimmed)) return trimmed;
  scope.warn('VALUE_ADJUSTED', `the url ${JSON.stringify(trimmed)} has no scheme; http:// was added`, field);
  return `http://${trimmed}`;
}
