import { importHeaders, importStatusCodes, isRecord, type ItemScope } from '../converter.js';
import { hasHeader, setHeader } from '../shared/headers.js';
import {
  MAX_QUERY_TEXT,
  certificatesVerified,
  dropSecret,
  keyword,
  missing,
  operator,
  own,
  referSecret,
  unsupported,
  type SkipItem,
  type TypeMapping,
} from './mapping.js';
import { flag, json, num, text, type MonitorRecord } from './monitor-record.js';
import { importHttpMethod, importKeywordText, importRequestBody, warnEmptyKeyword } from '../shared/http-request.js';
import { withoutUrlCredentials } from '../shared/url-credentials.js';
import { importUserName } from '../shared/user-name.js';

const MAX_REDIRECTS = 30;

const BODY_CONTENT_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  xml: 'text/xml; charset=utf-8',
};

// Authentication methods without an equivalent: what is said about them, and the secret that
// goes with them, which is dropped.
export const UNSUPPORTED_AUTH: Readonly<Record<string, { message: string; secret: string; what: string }>> = {
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

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
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
  const method = text(monitor, 'auth_method')?.toLowerCase() ?? (user !== undefined || text(monitor, 'basic_auth_pass') !== undefined ? 'basic' : undefined);
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
    case 'basic': {
      const userName = importUserName(user, scope, monitor.field('basic_auth_user'));
      if (userName !== undefined) config.basicAuthUser = userName;
      config.basicAuthPassword = referSecret(monitor, scope, 'basic_auth_pass', 'PASSWORD', 'the basic-auth password');
      return;
    }
    case 'bearer': {
      const token = referSecret(monitor, scope, 'bearer_token', 'TOKEN', 'the bearer token');
      if (token !== undefined) {
        const headers = { ...(config.headers as Record<string, string> | undefined) };
        setHeader(headers, 'Authorization', `Bearer ${token}`, scope, monitor.field('headers'));
        config.headers = headers;
      } else {
        scope.warn('UNSUPPORTED_SETTING', 'bearer authentication is imported without its token: set it up again', field);
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
    if (encoding === 'json' && body.trim() !== '' && !isJson(body)) {
      // The tool parses a JSON body before sending and fails every check when it cannot
      // (server/model/monitor.js: "Your JSON body is invalid").
      scope.warn(
        'UNSUPPORTED_SETTING',
        'the body is not valid JSON, so the tool failed every check without sending it; the check sends it as it is',
        monitor.field('body'),
      );
    }
    const contentType = own(BODY_CONTENT_TYPES, encoding);
    if (contentType !== undefined && !hasHeader(headers, 'content-type')) setHeader(headers, 'Content-Type', contentType, scope, monitor.field('headers'));
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
    if (value !== undefined) {
      config.keyword = keyword(value, flag(monitor, 'invert_keyword') ?? false);
      // The tool searches a body that parses as JSON as compact JSON written anew
      // (server/model/monitor.js, keyword branch: JSON.stringify of axios's parsed body).
      config.keywordSearch = 'reserialised-json';
    }
  }
  if (type === 'json-query') {
    // Without a path the tool compares the whole body (src/util.ts evaluateJsonQuery).
    const expression = text(monitor, 'json_path') ?? '$';
    const expected = text(monitor, 'expected_value');
    if (expression.length > MAX_QUERY_TEXT) {
      scope.warn('UNSUPPORTED_SETTING', 'the JSON query is too long and was left out; the check only tests the status code', monitor.field('json_path'));
    } else if (expected === undefined || expected.length > MAX_QUERY_TEXT) {
      scope.warn('UNSUPPORTED_SETTING', 'the JSON query has no usable expected value and was left out', monitor.field('expected_value'));
    } else {
      // The tool compares the result's text (== and != as text, "2.10" is not "2.1"), orders only
      // numbers, fails on arrays, objects and null, and evaluates a body that is not JSON as
      // text (src/util.ts evaluateJsonQuery): the same settings, made explicit.
      const query = { expression, operator: operator(monitor, scope, 'json_path_operator'), expected, compareAs: 'text', scalarOnly: true };
      config.jsonQueries = [query];
      config.nonJsonBody = 'text';
    }
  }
}

/**
 * Certificate and domain expiry reminders: the tool only notifies (server/model/monitor.js
 * handleTlsInfo, server/util-server.js checkCertExpiryNotifications; domain expiry after the
 * check), its verdict never depends on them. Asserting on expiry would page where the tool
 * stayed up, so they are left out and the user is told how to get the reminders back.
 */
export function dropExpiryReminders(monitor: MonitorRecord, scope: ItemScope, certificate: boolean): void {
  if (certificate && flag(monitor, 'expiry_notification') === true) {
    scope.warn(
      'NOTIFICATIONS_DROPPED',
      'certificate expiry reminders only notified and never made the monitor fail, so they were not imported ' +
        '(certificateExpiryDays would fail the check): add a tls check with expiryDays to be alerted before the certificate expires',
      monitor.field('expiry_notification'),
    );
  }
  if (flag(monitor, 'domain_expiry_notification') === true) {
    scope.warn(
      'NOTIFICATIONS_DROPPED',
      'domain expiry reminders only notified and never made the monitor fail, so they were not imported: ' +
        'add a domain check with expiryDays to be alerted before the registration expires',
      monitor.field('domain_expiry_notification'),
    );
  }
}

function mapHttpExtras(monitor: MonitorRecord, scope: ItemScope, target: string): void {
  dropExpiryReminders(monitor, scope, target.toLowerCase().startsWith('https:'));
  if (flag(monitor, 'cache_bust') === true) {
    scope.warn('UNSUPPORTED_SETTING', 'cache busting (a random query parameter) has no equivalent', monitor.field('cache_bust'));
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
  mapHttpExtras(monitor, scope, target);
  return { type: 'http', target, config };
}

/** `real-browser` monitors: a browser check that loads the page. */
export function mapBrowser(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const config: Record<string, unknown> = {};
  const target = withoutUrlCredentials(text(monitor, 'url')?.trim(), scope, monitor.field('url'), config, false);
  if (target === undefined) return missing(monitor, 'url', 'URL');
  if (config.basicAuthUser !== undefined) {
    scope.warn('UNSUPPORTED_SETTING', 'browser checks have no sign-in; the user name in the URL was left out', monitor.field('url'));
    delete config.basicAuthUser;
  }
  // The tool accepts any status from 200 to 399 on a browser monitor, whatever its accepted
  // list says (server/monitor-types/real-browser-monitor-type.js).
  config.expectedStatusCodes = ['200-399'];
  // Its browser context is opened without ignoreHTTPSErrors: the certificate is verified.
  config.ignoreTlsErrors = certificatesVerified(monitor, scope);
  unsupported(monitor, scope, 'remote_browser', "the page is loaded by the service's own browser, not the remote browser");
  unsupported(monitor, scope, 'proxy_id', 'requests through a proxy have no equivalent; the check connects directly');
  return { type: 'browser', target, config };
}
