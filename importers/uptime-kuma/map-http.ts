import { importHeaders, importStatusCodes, isRecord, type ItemScope } from '../converter.js';
import { dropSecret, keyword, missing, operator, own, referSecret, unsupported, type SkipItem, type TypeMapping } from './mapping.js';
import { flag, json, num, text, type MonitorRecord } from './monitor-record.js';
import { importHttpMethod, importKeywordText, importRequestBody, warnEmptyKeyword } from '../shared/http-request.js';
import { withoutUrlCredentials } from '../shared/url-credentials.js';

// The tool reminds about certificate and domain expiry 7, 14 and 21 days ahead by default;
// a check fails from the earliest of them on.
const EXPIRY_REMINDER_DAYS = 21;
const MAX_REDIRECTS = 30;
const MAX_TEXT = 1024;

const BODY_CONTENT_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'text/xml; charset=utf-8',
};

// Authentication methods without an equivalent: what is said about them, and the secret that
// goes with them, which is dropped.
const UNSUPPORTED_AUTH: Readonly<Record<string, { message: string; secret: string; what: string }>> = {
  ntlm: {
    message: 'NTLM authentication has no equivalent; the check is imported without it',
    secret: 'basic_auth_pass',
    what: 'the NTLM password',
  },
  mtls: {
    message: 'client certificates (mTLS) have no equivalent; the check is imported without them',
    secret: 'tls_key',
    what: "the client certificate's private key",
  },
  'oauth2-cc': {
    message: 'OAuth 2.0 client credentials have no equivalent; the check is imported without them',
    secret: 'oauth_client_secret',
    what: 'the OAuth client secret',
  },
};

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

/** Headers stored as JSON text of an object; credential headers dropped. */
export function headersOf(monitor: MonitorRecord, scope: ItemScope): Record<string, string> | undefined {
  const parsed = json(monitor, 'headers');
  if (parsed === undefined) return undefined;
  if (!parsed.ok || !isRecord(parsed.value)) {
    scope.warn('UNSUPPORTED_SETTING', 'the headers are not a JSON object and were left out', monitor.field('headers'));
    return undefined;
  }
  return importHeaders(Object.entries(parsed.value), scope, monitor.field('headers'));
}

/** Accepted status codes from the JSON list (`["200-299"]`). */
export function statusCodesOf(monitor: MonitorRecord, scope: ItemScope): (number | string)[] | undefined {
  const parsed = json(monitor, 'accepted_statuscodes_json');
  const field = monitor.field('accepted_statuscodes_json');
  if (parsed === undefined) return undefined;
  if (!parsed.ok || !Array.isArray(parsed.value)) {
    scope.warn('VALUE_ADJUSTED', 'the accepted status codes are not a JSON list; 200-299 is accepted', field);
    return undefined;
  }
  return importStatusCodes(parsed.value, scope, field);
}

function mapAuth(monitor: MonitorRecord, scope: ItemScope, config: Record<string, unknown>): void {
  const user = text(monitor, 'basic_auth_user');
  const method =
    text(monitor, 'auth_method')?.toLowerCase() ??
    (user !== undefined || text(monitor, 'basic_auth_pass') !== undefined ? 'basic' : undefined);
  const field = monitor.field('auth_method');
  const unsupportedAuth = method === undefined ? undefined : own(UNSUPPORTED_AUTH, method);
  if (unsupportedAuth !== undefined) {
    scope.warn('UNSUPPORTED_SETTING', unsupportedAuth.message, field);
    dropSecret(monitor, scope, unsupportedAuth.secret, unsupportedAuth.what);
    return;
  }
  switch (method) {
    case undefined:
      return;
    case 'basic':
      if (user !== undefined && user.length <= 255) config.basicAuthUser = user;
      else if (user !== undefined) {
        scope.warn('UNSUPPORTED_SETTING', 'the basic-auth user name is too long and was left out', monitor.field('basic_auth_user'));
      }
      config.basicAuthPassword = referSecret(monitor, scope, 'basic_auth_pass', 'PASSWORD', 'the basic-auth password');
      return;
    case 'bearer': {
      const token = referSecret(monitor, scope, 'bearer_token', 'TOKEN', 'the bearer token');
      if (token !== undefined) config.headers = { ...(config.headers as Record<string, string> | undefined), Authorization: `Bearer ${token}` };
      else {
        scope.warn(
          'UNSUPPORTED_SETTING',
          'bearer authentication is imported without its token: set it up again',
          field,
        );
      }
      return;
    }
    default:
      scope.warn('UNSUPPORTED_SETTING', `the authentication method ${JSON.stringify(method)} has no equivalent`, field);
  }
}

function mapRequest(monitor: MonitorRecord, scope: ItemScope, config: Record<string, unknown>): void {
  const method = importHttpMethod(text(monitor, 'method'), scope, monitor.field('method'));
  if (method !== undefined) config.method = method;
  const headers = headersOf(monitor, scope) ?? {};
  const body = importRequestBody(text(monitor, 'body'), scope, monitor.field('body'));
  if (body !== undefined) {
    config.body = body;
    const encoding = text(monitor, 'http_body_encoding')?.toLowerCase() ?? 'json';
    const contentType = own(BODY_CONTENT_TYPES, encoding);
    if (contentType !== undefined && !hasHeader(headers, 'content-type') && Object.keys(headers).length < 50) {
      headers['Content-Type'] = contentType;
    }
  }
  if (Object.keys(headers).length > 0) config.headers = headers;
}

function mapRedirects(monitor: MonitorRecord, scope: ItemScope, config: Record<string, unknown>): void {
  const redirects = num(monitor, 'maxredirects');
  if (redirects === undefined) return;
  if (redirects <= 0) config.followRedirects = false;
  else if (redirects > MAX_REDIRECTS || !Number.isInteger(redirects)) {
    config.maxRedirects = Math.min(MAX_REDIRECTS, Math.round(redirects));
    scope.warn('VALUE_ADJUSTED', `at most ${config.maxRedirects} redirects are followed (was ${redirects})`, monitor.field('maxredirects'));
  } else config.maxRedirects = redirects;
}

function mapAssertion(monitor: MonitorRecord, scope: ItemScope, config: Record<string, unknown>): void {
  const type = text(monitor, 'type');
  if (type === 'keyword') {
    const raw = text(monitor, 'keyword');
    if (raw === undefined) warnEmptyKeyword(scope, monitor.field('keyword'));
    const value = importKeywordText(raw, scope, monitor.field('keyword'));
    if (value !== undefined) config.keyword = keyword(value, flag(monitor, 'invert_keyword') ?? false);
  }
  if (type === 'json-query') {
    const expression = text(monitor, 'json_path');
    const expected = text(monitor, 'expected_value');
    if (expression === undefined || expression.length > MAX_TEXT) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        'the JSON query is empty or too long and was left out; the check only tests the status code',
        monitor.field('json_path'),
      );
    } else if (expected === undefined || expected.length > MAX_TEXT) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        'the JSON query has no usable expected value and was left out',
        monitor.field('expected_value'),
      );
    } else {
      config.jsonQueries = [{ expression, operator: operator(monitor, scope, 'json_path_operator'), expected }];
    }
  }
}

function mapExpiry(monitor: MonitorRecord, scope: ItemScope, config: Record<string, unknown>, target: string): void {
  if (flag(monitor, 'expiry_notification') === true) {
    if (target.toLowerCase().startsWith('https:')) config.certificateExpiryDays = EXPIRY_REMINDER_DAYS;
  }
  if (flag(monitor, 'domain_expiry_notification') === true) config.domainExpiryDays = EXPIRY_REMINDER_DAYS;
  if (flag(monitor, 'cache_bust') === true) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'cache busting (a random query parameter) has no equivalent',
      monitor.field('cache_bust'),
    );
  }
  if (flag(monitor, 'retry_only_on_status_code_failure') === true) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'retrying only on status-code failures has no equivalent; every failure counts',
      monitor.field('retry_only_on_status_code_failure'),
    );
  }
  unsupported(monitor, scope, 'proxy_id', 'requests through a proxy have no equivalent; the check connects directly');
}

/** `http`, `keyword` and `json-query` monitors: an HTTP check. */
export function mapHttp(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const config: Record<string, unknown> = {};
  const target = withoutUrlCredentials(text(monitor, 'url')?.trim(), scope, monitor.field('url'), config);
  if (target === undefined) return missing(monitor, 'url', 'URL');
  mapRequest(monitor, scope, config);
  config.expectedStatusCodes = statusCodesOf(monitor, scope);
  mapAssertion(monitor, scope, config);
  mapAuth(monitor, scope, config);
  mapRedirects(monitor, scope, config);
  config.ignoreTlsErrors = flag(monitor, 'ignore_tls');
  mapExpiry(monitor, scope, config, target);
  return { type: 'http', target, config };
}

/** `real-browser` monitors: a browser check that loads the page. */
export function mapBrowser(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const config: Record<string, unknown> = {};
  const target = withoutUrlCredentials(text(monitor, 'url')?.trim(), scope, monitor.field('url'), config, false);
  if (target === undefined) return missing(monitor, 'url', 'URL');
  if (config.basicAuthUser !== undefined) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'browser checks have no sign-in; the user name in the URL was left out',
      monitor.field('url'),
    );
    delete config.basicAuthUser;
  }
  config.expectedStatusCodes = statusCodesOf(monitor, scope);
  config.ignoreTlsErrors = flag(monitor, 'ignore_tls');
  unsupported(monitor, scope, 'remote_browser', "the page is loaded by the service's own browser, not the remote browser");
  unsupported(monitor, scope, 'proxy_id', 'requests through a proxy have no equivalent; the check connects directly');
  return { type: 'browser', target, config };
}

/** `websocket-upgrade` monitors: a WebSocket check. */
export function mapWebsocket(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const target = text(monitor, 'url')?.trim();
  if (target === undefined) return missing(monitor, 'url', 'URL');
  const subprotocols = (text(monitor, 'ws_subprotocol') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return {
    type: 'websocket',
    target,
    config: {
      headers: headersOf(monitor, scope),
      subprotocols,
      ignoreSecWebSocketAccept: flag(monitor, 'ws_ignore_sec_websocket_accept_header'),
      ignoreTlsErrors: flag(monitor, 'ignore_tls'),
    },
  };
}
