import type { CheckTypeName } from '../../checks/index.js';
import { importHeaders } from '../shared/headers.js';
import { importKeywordText, importRequestBody } from '../shared/http-request.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { flagValue, integerValue, textValue } from '../shared/values.js';
import { importBoundedText } from '../shared/bounded-text.js';
import { importUserName } from '../shared/user-name.js';

/** What one check type becomes: the check's type, target and type settings. */
export interface KindCheck {
  type: CheckTypeName;
  target: string;
  config: Record<string, unknown>;
}

/** The check's fields a kind reads: the host, the type settings (detail only) and whether a detail was given. */
export interface KindInput {
  hostname: string;
  settings: Record<string, unknown>;
  detailed: boolean;
  check: Record<string, unknown>;
}

const text = (value: unknown) => textValue(value)?.trim() || undefined;

function needsDetail(input: KindInput, scope: ItemScope, what: string): void {
  if (!input.detailed) {
    scope.warn('UNSUPPORTED_SETTING', `the listing has no ${what}; give the check's GET /checks/{id} answer too for them`, 'type');
  }
}

// `shouldcontain` / `shouldnotcontain` (http), `stringtoexpect` (tcp, udp): the keyword.
function keyword(settings: Record<string, unknown>, scope: ItemScope): Record<string, unknown> | undefined {
  const contain = importKeywordText(text(settings.shouldcontain), scope, 'shouldcontain');
  const notContain = importKeywordText(text(settings.shouldnotcontain), scope, 'shouldnotcontain');
  if (contain && notContain) {
    scope.warn('UNSUPPORTED_SETTING', `the check tests for one text only; shouldnotcontain ${JSON.stringify(notContain)} is not tested`, 'shouldnotcontain');
  }
  if (contain) return { value: contain, expect: 'present' };
  if (notContain) return { value: notContain, expect: 'absent' };
  return undefined;
}

function webUrl(input: KindInput, settings: Record<string, unknown>): string {
  const secure = flagValue(settings.encryption) === true;
  const port = integerValue(settings.port);
  const defaultPort = secure ? 443 : 80;
  const path = text(settings.url) ?? '/';
  const host = input.hostname.includes(':') && !input.hostname.startsWith('[') ? `[${input.hostname}]` : input.hostname;
  return `${secure ? 'https' : 'http'}://${host}${port !== undefined && port !== defaultPort ? `:${port}` : ''}${path.startsWith('/') ? path : `/${path}`}`;
}

// Pingdom counts a 4xx or 5xx answer as down and follows redirects (its documentation's "what is a check").
const UP_STATUSES = ['200-399'];

function http(input: KindInput, scope: ItemScope): KindCheck {
  const { settings } = input;
  needsDetail(input, scope, 'path, encryption, port or request settings');
  const config: Record<string, unknown> = { expectedStatusCodes: UP_STATUSES, keyword: keyword(settings, scope) };
  const body = importRequestBody(textValue(settings.postdata) || undefined, scope, 'postdata');
  if (body !== undefined) Object.assign(config, { method: 'POST', body });
  if (isRecord(settings.requestheaders)) {
    const headers = importHeaders(Object.entries(settings.requestheaders), scope, 'requestheaders');
    if (Object.keys(headers).length > 0) config.headers = headers;
  }
  const user = importUserName(text(settings.username), scope, 'username');
  if (user) config.basicAuthUser = user;
  if (text(settings.password)) config.basicAuthPassword = scope.secretFor('PASSWORD', 'the basic-auth password', 'password');
  const verify = flagValue(settings.verify_certificate ?? input.check.verify_certificate);
  if (verify === false) config.ignoreTlsErrors = true;
  const days = integerValue(settings.ssl_down_days_before);
  if (days !== undefined && days > 0) config.certificateExpiryDays = Math.min(days, 365);
  return { type: 'http', target: webUrl(input, settings), config };
}

function httpCustom(input: KindInput, scope: ItemScope): KindCheck {
  needsDetail(input, scope, 'path, encryption or port');
  if (Array.isArray(input.settings.additionalurls) && input.settings.additionalurls.length > 0) {
    scope.warn('UNSUPPORTED_SETTING', 'the additional URLs of the custom check are not requested', 'additionalurls');
  }
  // The script answers <pingdom_http_custom_check><status>OK</status>...; any other status is down.
  return {
    type: 'http',
    target: webUrl(input, input.settings),
    config: { expectedStatusCodes: UP_STATUSES, keyword: { value: '<status>OK</status>', expect: 'present' } },
  };
}

function socket(type: 'tcp' | 'udp') {
  return (input: KindInput, scope: ItemScope): KindCheck | string => {
    const port = integerValue(input.settings.port);
    if (port === undefined) return `the ${type} check has no port${input.detailed ? '' : ' in the listing; give its GET /checks/{id} answer too'}`;
    const send = importBoundedText(text(input.settings.stringtosend), scope, 'stringtosend', 'text to send');
    const expect = importKeywordText(text(input.settings.stringtoexpect), scope, 'stringtoexpect');
    return { type, target: `${input.hostname}:${port}`, config: { send, keyword: expect ? { value: expect } : undefined } };
  };
}

function ping(input: KindInput, scope: ItemScope): KindCheck {
  scope.warn(
    'UNSUPPORTED_SETTING',
    'Pingdom counts the host down when 3 of 5 echo requests go unanswered; the check sends 5 and is up when any is answered',
    'type',
  );
  return { type: 'icmp', target: input.hostname, config: { count: 5 } };
}

function dns(input: KindInput): KindCheck {
  const expected = text(input.settings.expectedip);
  return {
    type: 'dns',
    target: input.hostname,
    config: {
      recordType: expected?.includes(':') ? 'AAAA' : 'A',
      resolver: text(input.settings.nameserver),
      expectedValues: expected ? [expected] : undefined,
    },
  };
}

function mail(type: 'smtp' | 'pop3' | 'imap') {
  return (input: KindInput, scope: ItemScope): KindCheck => {
    const { settings } = input;
    needsDetail(input, scope, 'port or encryption');
    if (text(settings.stringtoexpect)) {
      scope.warn('UNSUPPORTED_SETTING', `the ${type} check tests the greeting, not for a text; stringtoexpect is not tested`, 'stringtoexpect');
    }
    if (text(settings.auth) || text(settings.password)) {
      scope.warn('SECRET_DROPPED', `the sign-in credentials were not imported (secrets never carry over, and the ${type} check does not sign in)`, 'auth');
    }
    const port = integerValue(settings.port);
    return {
      type,
      target: port === undefined ? input.hostname : `${input.hostname}:${port}`,
      config: { security: flagValue(settings.encryption) === true ? 'tls' : 'none' },
    };
  };
}

/** Each API check type with an equivalent, by its name in the API. */
export const CHECK_KINDS: Readonly<Record<string, (input: KindInput, scope: ItemScope) => KindCheck | string>> = {
  http,
  httpcustom: httpCustom,
  tcp: socket('tcp'),
  udp: socket('udp'),
  ping,
  dns,
  smtp: mail('smtp'),
  pop3: mail('pop3'),
  imap: mail('imap'),
};
