import type { CheckTypeName } from '../../checks/index.js';
import { importHeaders, importStatusCodes, isRecord, type ItemScope } from '../converter.js';
import { flag, isSet, num, text, type Attributes } from './attributes.js';
import { hostOf, hostPort, portOf } from './targets.js';
import { importHttpMethod, importKeywordText, importRequestBody, warnEmptyKeyword } from '../shared/http-request.js';
import { withoutUrlCredentials } from '../shared/url-credentials.js';
import { importUserName } from '../shared/user-name.js';

/** The type-specific part of a converted monitor. */
export interface KindMapping {
  readonly type: CheckTypeName;
  readonly target: string;
  readonly config: Record<string, unknown>;
}

/** Why a monitor produces no check. */
export interface KindSkip {
  readonly skip: 'UNSUPPORTED_TYPE' | 'INVALID_ITEM';
  readonly message: string;
  readonly field?: string;
}

const MAX_TEXT = 1024;

function keywordOf(attributes: Attributes, scope: ItemScope, expect: 'present' | 'absent') {
  const value = importKeywordText(text(attributes, 'required_keyword'), scope, 'required_keyword');
  return value === undefined ? undefined : { value, expect };
}

function bodyOf(attributes: Attributes, scope: ItemScope): string | undefined {
  return importRequestBody(text(attributes, 'request_body'), scope, 'request_body');
}

function httpRequest(attributes: Attributes, scope: ItemScope, config: Record<string, unknown>): void {
  const method = importHttpMethod(text(attributes, 'http_method'), scope, 'http_method');
  if (method !== undefined) config.method = method;
  const headers = attributes.request_headers;
  if (Array.isArray(headers)) {
    const entries = headers.filter(isRecord).flatMap((header) => (typeof header.name === 'string' ? [[header.name, header.value] as const] : []));
    config.headers = importHeaders(entries, scope, 'request_headers');
  }
  config.body = bodyOf(attributes, scope);
  const user = importUserName(text(attributes, 'auth_username'), scope, 'auth_username');
  if (user !== undefined) config.basicAuthUser = user;
  if (isSet(attributes, 'auth_password')) config.basicAuthPassword = scope.secretFor('PASSWORD', 'the basic-auth password', 'auth_password');
}

function expiryDays(attributes: Attributes, key: string, target: string): number | undefined {
  const days = num(attributes, key);
  if (days === undefined || !Number.isInteger(days) || days < 1 || days > 365) return undefined;
  return key === 'ssl_expiration' && !target.toLowerCase().startsWith('https:') ? undefined : days;
}

/** HTTP kinds (`status`, `expected_status_code`, `keyword`, `keyword_absence`): an HTTP check. */
export function mapHttp(attributes: Attributes, scope: ItemScope, kind: string): KindMapping | KindSkip {
  const config: Record<string, unknown> = {};
  const target = withoutUrlCredentials(text(attributes, 'url')?.trim(), scope, 'url', config);
  if (target === undefined) return { skip: 'INVALID_ITEM', message: 'the monitor has no URL', field: 'url' };
  httpRequest(attributes, scope, config);
  const codes = attributes.expected_status_codes;
  if (Array.isArray(codes) && codes.length > 0) config.expectedStatusCodes = importStatusCodes(codes, scope, 'expected_status_codes');
  if (kind === 'keyword' || kind === 'keyword_absence') {
    config.keyword = keywordOf(attributes, scope, kind === 'keyword' ? 'present' : 'absent');
    if (config.keyword === undefined && text(attributes, 'required_keyword') === undefined) warnEmptyKeyword(scope, 'required_keyword');
  }
  config.followRedirects = flag(attributes, 'follow_redirects');
  config.ignoreTlsErrors = flag(attributes, 'verify_ssl') === false ? true : undefined;
  config.certificateExpiryDays = expiryDays(attributes, 'ssl_expiration', target);
  config.domainExpiryDays = expiryDays(attributes, 'domain_expiration', target);
  if (flag(attributes, 'remember_cookies') === true) {
    scope.warn('UNSUPPORTED_SETTING', 'keeping cookies between requests has no equivalent', 'remember_cookies');
  }
  return { type: 'http', target, config };
}

/** `playwright`: a browser check that loads the URL; the scenario itself does not carry over. */
export function mapPlaywright(attributes: Attributes, scope: ItemScope): KindMapping | KindSkip {
  const config: Record<string, unknown> = {};
  const target = withoutUrlCredentials(text(attributes, 'url')?.trim(), scope, 'url', config, false);
  if (target === undefined || !/^https?:\/\//i.test(target)) {
    return {
      skip: 'UNSUPPORTED_TYPE',
      message: 'Playwright scenarios have no equivalent and the monitor has no page URL to load instead',
      field: 'playwright_script',
    };
  }
  delete config.basicAuthUser;
  if (isSet(attributes, 'playwright_script')) {
    scope.warn('UNSUPPORTED_SETTING', 'the Playwright scenario does not carry over: the browser check only loads the page', 'playwright_script');
  }
  if (isSet(attributes, 'environment_variables')) {
    scope.warn(
      'SECRET_DROPPED',
      "the scenario's environment variables were dropped: secrets never carry over and must be re-entered in svc",
      'environment_variables',
    );
  }
  config.ignoreTlsErrors = flag(attributes, 'verify_ssl') === false ? true : undefined;
  return { type: 'browser', target, config };
}

const MAIL_TYPES: Readonly<Record<string, { type: CheckTypeName; tlsPort: number }>> = {
  smtp: { type: 'smtp', tlsPort: 465 },
  pop: { type: 'pop3', tlsPort: 995 },
  imap: { type: 'imap', tlsPort: 993 },
};

/** Host kinds (`ping`, `tcp`, `udp`, `smtp`, `pop`, `imap`): the host from `url`, the port from `port`. */
export function mapHost(attributes: Attributes, scope: ItemScope, kind: string): KindMapping | KindSkip {
  const address = hostOf(text(attributes, 'url'));
  if (address === undefined) return { skip: 'INVALID_ITEM', message: 'the monitor has no host to check', field: 'url' };
  if (kind === 'ping') return { type: 'icmp', target: hostPort(address.host, undefined), config: {} };
  const port = portOf(attributes, scope) ?? address.port;
  const mail = Object.hasOwn(MAIL_TYPES, kind) ? MAIL_TYPES[kind] : undefined;
  if (mail !== undefined) {
    return {
      type: mail.type,
      target: hostPort(address.host, port),
      config: {
        security: port === mail.tlsPort ? 'tls' : 'none',
        ignoreTlsErrors: flag(attributes, 'verify_ssl') === false ? true : undefined,
      },
    };
  }
  if (port === undefined) return { skip: 'INVALID_ITEM', message: 'the monitor has no port to check', field: 'port' };
  return {
    type: kind === 'udp' ? 'udp' : 'tcp',
    target: hostPort(address.host, port),
    config: { send: bodyOf(attributes, scope), keyword: keywordOf(attributes, scope, 'present') },
  };
}

/** `dns`: `url` is the name server, `request_body` the name to resolve, `required_keyword` an expected answer. */
export function mapDns(attributes: Attributes, scope: ItemScope): KindMapping | KindSkip {
  const server = hostOf(text(attributes, 'url'));
  const name = text(attributes, 'request_body')?.trim();
  const expected = text(attributes, 'required_keyword');
  const config: Record<string, unknown> = {
    expectedValues: expected === undefined || expected.length > MAX_TEXT ? undefined : [expected],
  };
  if (name === undefined) {
    if (server === undefined) return { skip: 'INVALID_ITEM', message: 'the monitor names no domain to resolve', field: 'request_body' };
    scope.warn('VALUE_ADJUSTED', 'no domain to query is set; the name in url is resolved with the system resolver', 'request_body');
    return { type: 'dns', target: server.host, config };
  }
  if (server !== undefined) {
    const port = portOf(attributes, scope) ?? server.port;
    config.resolver = hostPort(server.host, port === 53 ? undefined : port);
  }
  return { type: 'dns', target: name, config };
}
