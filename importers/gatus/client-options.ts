import type { CheckTypeName } from '../../checks/index.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, flagValue, textValue } from '../shared/values.js';
import { parseGoDuration } from './go-duration.js';

/** The `client` settings that have an equivalent. */
export interface ClientOptions {
  ignoreTlsErrors?: boolean;
  followRedirects?: boolean;
  timeoutMs?: number;
}

const TLS_OPTION_TYPES: ReadonlySet<CheckTypeName> = new Set(['http', 'websocket', 'grpc']);

function proxyHasCredentials(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url.trim());
}

/**
 * Reads an endpoint's `client` block: `insecure`, `ignore-redirect` and `timeout` map onto
 * the check; OAuth2, mTLS and proxy credentials are dropped as secrets; the rest is reported.
 */
export function readClientOptions(raw: unknown, type: CheckTypeName, scope: ItemScope): ClientOptions {
  const options: ClientOptions = {};
  if (raw === undefined || raw === null) return options;
  if (!isRecord(raw)) {
    scope.warn('UNSUPPORTED_SETTING', '`client` is not a mapping and was ignored', 'client');
    return options;
  }
  if (raw.insecure !== undefined) {
    const insecure = flagValue(raw.insecure);
    if (insecure === undefined) {
      scope.warn('UNSUPPORTED_SETTING', `client.insecure is ${describeValue(raw.insecure)}, not true or false; ignored`, 'client.insecure');
    } else if (TLS_OPTION_TYPES.has(type)) options.ignoreTlsErrors = insecure;
    else if (insecure && type === 'tls') {
      scope.warn('UNSUPPORTED_SETTING', 'a TLS certificate check always verifies the certificate; client.insecure was ignored', 'client.insecure');
    }
  }
  if (raw['ignore-redirect'] !== undefined) {
    const ignore = flagValue(raw['ignore-redirect']);
    if (ignore === undefined) {
      scope.warn('UNSUPPORTED_SETTING', 'client.ignore-redirect is not true or false; ignored', 'client.ignore-redirect');
    } else if (type === 'http') options.followRedirects = !ignore;
  }
  if (raw.timeout !== undefined) {
    const text = textValue(raw.timeout) ?? '';
    const ms = typeof raw.timeout === 'number' ? raw.timeout * 1000 : parseGoDuration(text);
    if (ms === undefined || ms <= 0) {
      scope.warn('VALUE_ADJUSTED', `client.timeout ${describeValue(raw.timeout)} is not a duration such as 10s; the default of 10 s is used`, 'client.timeout');
    } else {
      if (typeof raw.timeout === 'number') {
        scope.warn('VALUE_ADJUSTED', `client.timeout ${raw.timeout} has no unit; read as ${raw.timeout} seconds`, 'client.timeout');
      }
      options.timeoutMs = ms;
    }
  }
  if (raw.oauth2 !== undefined && raw.oauth2 !== null) {
    scope.warn(
      'SECRET_DROPPED',
      'the OAuth2 client credentials (client.oauth2: client-id, client-secret) were dropped: secrets never carry over; ' +
        're-enter them in svc, until then the request is sent without a token',
      'client.oauth2',
    );
  }
  if (raw.tls !== undefined && raw.tls !== null) {
    scope.warn(
      'SECRET_DROPPED',
      'the client certificate and private key (client.tls) were not imported: keys never carry over; re-enter them in svc',
      'client.tls',
    );
  }
  const proxy = textValue(raw['proxy-url']);
  if (proxy !== undefined && proxy !== '') {
    if (proxyHasCredentials(proxy)) {
      scope.warn('SECRET_DROPPED', 'the proxy credentials in client.proxy-url were dropped: re-enter them in svc', 'client.proxy-url');
    }
    scope.warn('UNSUPPORTED_SETTING', 'requests through a proxy (client.proxy-url) are not supported; the check connects directly', 'client.proxy-url');
  }
  const unsupported: Record<string, string> = {
    'dns-resolver': 'a custom DNS resolver for the request',
    'identity-aware-proxy': 'Google Identity-Aware Proxy authentication',
    tunnel: 'SSH tunnels',
  };
  for (const [key, what] of Object.entries(unsupported)) {
    const value = raw[key];
    if (value !== undefined && value !== null && value !== '') {
      scope.warn('UNSUPPORTED_SETTING', `${what} (client.${key}) is not supported; ignored`, `client.${key}`);
    }
  }
  const network = textValue(raw.network);
  if (network !== undefined && network !== '' && network !== 'ip') {
    scope.warn('UNSUPPORTED_SETTING', `forcing the network (client.network: ${network}) is not supported; ignored`, 'client.network');
  }
  return options;
}
