import type { ItemScope } from '../converter.js';
import { hasHeader, setHeader } from '../shared/headers.js';
import { UNSUPPORTED_AUTH, headersOf } from './map-http.js';
import { certificatesVerified, dropSecret, missing, referSecret, type SkipItem, type TypeMapping } from './mapping.js';
import { flag, json, text, type MonitorRecord } from './monitor-record.js';

// `websocket-upgrade` monitors (server/monitor-types/websocket-upgrade.js of 2.5.3): the ws
// library opens the connection with the monitor's headers, its sign-in and, for mTLS only, its
// TLS setting; the tool closes with 1000 once connected.

const CLOSE_CODE = /^([1-4]\d{3})(?:-([1-4]\d{3}))?$/;

/**
 * The accepted closing codes of a WebSocket monitor: the tool closes with 1000 once connected and
 * checks the server's closing code against its accepted list (server/monitor-types/
 * websocket-upgrade.js); "1000" unless the list says otherwise.
 */
function closeCodesOf(monitor: MonitorRecord, scope: ItemScope): (number | string)[] {
  const parsed = json(monitor, 'accepted_statuscodes_json');
  const field = monitor.field('accepted_statuscodes_json');
  if (parsed === undefined) return [1000];
  const listed = parsed.ok && Array.isArray(parsed.value) ? parsed.value.map((entry) => String(entry).trim()) : [];
  const codes: (number | string)[] = [];
  for (const entry of listed.slice(0, 50)) {
    const match = CLOSE_CODE.exec(entry);
    if (match && (match[2] === undefined || Number(match[1]) <= Number(match[2]))) codes.push(match[2] === undefined ? Number(match[1]) : entry);
  }
  if (codes.length === listed.length && codes.length > 0) return codes;
  const dropped = listed.filter((entry) => !CLOSE_CODE.test(entry));
  scope.warn(
    'UNSUPPORTED_SETTING',
    codes.length === 0
      ? `the accepted codes (${dropped.join(', ') || 'none'}) hold no WebSocket closing code, so the tool reported every check down; the check accepts 1000`
      : `the accepted codes ${dropped.join(', ')} are not WebSocket closing codes and were left out`,
    field,
  );
  return codes.length === 0 ? [1000] : codes;
}

/**
 * The Authorization header the tool sends (buildWsOptions): basic auth from the user name and
 * password, or the bearer token. Failing both, Node's HTTP client sends the URL's
 * `user:password@` as basic auth when no Authorization header is set (ws passes them as `auth`).
 * The check refers to a secret that holds what follows "Basic " or "Bearer ".
 */
function signIn(monitor: MonitorRecord, scope: ItemScope, headers: Record<string, string>, target: string): string {
  const method = text(monitor, 'auth_method')?.toLowerCase();
  if (method === 'basic' && (text(monitor, 'basic_auth_user') !== undefined || text(monitor, 'basic_auth_pass') !== undefined)) {
    const what = 'the basic-auth user name and password, sent as "Authorization: Basic <secret>" (the secret is the base64 of user:password),';
    setHeader(headers, 'Authorization', `Basic ${scope.secretFor('BASIC_AUTH', what, monitor.field('basic_auth_pass'))}`, scope, monitor.field('headers'));
  } else if (method === 'bearer' && text(monitor, 'bearer_token') !== undefined) {
    setHeader(headers, 'Authorization', `Bearer ${referSecret(monitor, scope, 'bearer_token', 'TOKEN', 'the bearer token')}`, scope, monitor.field('headers'));
  } else if (method === 'oauth2-cc' || method === 'mtls') {
    const unsupported = UNSUPPORTED_AUTH[method]!;
    scope.warn('UNSUPPORTED_SETTING', unsupported.message, monitor.field('auth_method'));
    dropSecret(monitor, scope, unsupported.secret, unsupported.what);
  }
  if (!URL.canParse(target)) return target;
  const url = new URL(target);
  if (url.username === '' && url.password === '') return target;
  const field = monitor.field('url');
  if (hasHeader(headers, 'authorization')) {
    scope.warn('VALUE_ADJUSTED', 'the user name and password in the URL were left out: the Authorization header signs in, as in the tool', field);
  } else {
    const what = 'the user name and password in the URL, sent as "Authorization: Basic <secret>" (the secret is the base64 of user:password),';
    setHeader(headers, 'Authorization', `Basic ${scope.secretFor('BASIC_AUTH', what, field)}`, scope, monitor.field('headers'));
  }
  url.username = '';
  url.password = '';
  return url.href;
}

const SUBPROTOCOL = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_SUBPROTOCOLS = 10;

/**
 * The subprotocols offered: the tool takes out every space and splits on commas. The check
 * offers at most 10 valid tokens; the others are reported.
 */
function subprotocolsOf(monitor: MonitorRecord, scope: ItemScope): string[] {
  const listed = (text(monitor, 'ws_subprotocol') ?? '')
    .replace(/\s/g, '')
    .split(',')
    .filter((name) => name !== '');
  const valid = listed.filter((name) => SUBPROTOCOL.test(name));
  const kept = valid.slice(0, MAX_SUBPROTOCOLS);
  const dropped = listed.filter((name) => !kept.includes(name));
  if (dropped.length > 0) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the subprotocols ${dropped.join(', ')} were left out: the check offers at most ${MAX_SUBPROTOCOLS}, each a token`,
      monitor.field('ws_subprotocol'),
    );
  }
  return kept;
}

/** `websocket-upgrade` monitors: a WebSocket check. */
export function mapWebsocket(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const url = text(monitor, 'url')?.trim();
  if (url === undefined) return missing(monitor, 'url', 'URL');
  const headers = headersOf(monitor, scope) ?? {};
  const target = signIn(monitor, scope, headers, url);
  // Only with mTLS does the tool pass its TLS setting on; otherwise certificates are verified.
  const mtls = text(monitor, 'auth_method')?.toLowerCase() === 'mtls';
  const subprotocols = subprotocolsOf(monitor, scope);
  return {
    type: 'websocket',
    target,
    config: {
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      subprotocols,
      expectedCloseCodes: closeCodesOf(monitor, scope),
      ignoreSecWebSocketAccept: flag(monitor, 'ws_ignore_sec_websocket_accept_header'),
      ignoreTlsErrors: mtls ? flag(monitor, 'ignore_tls') : certificatesVerified(monitor, scope),
    },
  };
}
