import { regexpLiteral } from '../shared/go-regexp.js';
import { hasHeader, importHeaders, setHeader } from '../shared/headers.js';
import { importHttpMethod, importKeywordText, importRequestBody } from '../shared/http-request.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { importStatusCodes } from '../shared/status-codes.js';
import { withoutUrlCredentials } from '../shared/url-credentials.js';
import { flagValue, integerValue, textValue } from '../shared/values.js';
import type { ProbeCheck } from './probe-check.js';
import { readTlsConfig, regexpList, reportIpProtocol } from './probe-settings.js';
import { importUserName } from '../shared/user-name.js';

// The `http` prober (prober/http.go, config/config.go's HTTPProbe).

const unsupported = (scope: ItemScope, field: string, what: string) =>
  scope.warn('UNSUPPORTED_SETTING', `${what} (${field}) has no equivalent; the check is imported without it`, field);

/**
 * The keyword from the body expressions: the first plain-text `fail_if_body_not_matches_regexp`
 * (present), else the first plain-text `fail_if_body_matches_regexp` (absent). Every other
 * expression is reported: the check looks for one piece of text, not for patterns.
 */
function bodyKeyword(http: Record<string, unknown>, scope: ItemScope): Record<string, unknown> | undefined {
  let keyword: Record<string, unknown> | undefined;
  for (const [field, expect] of [
    ['fail_if_body_not_matches_regexp', 'present'],
    ['fail_if_body_matches_regexp', 'absent'],
  ] as const) {
    for (const expression of regexpList(http[field])) {
      const literal = regexpLiteral(expression);
      if (keyword === undefined && literal && !literal.anchored) {
        // Too long a keyword is left out with its warning, and the next expression is tried.
        if (importKeywordText(literal.text, scope, field) === undefined) continue;
        keyword = { value: literal.text, expect };
        if (literal.dotted) {
          scope.warn('VALUE_ADJUSTED', `the "." in ${JSON.stringify(expression)} matches any character in the exporter; the check looks for a dot`, field);
        }
        continue;
      }
      scope.warn(
        'UNSUPPORTED_SETTING',
        keyword === undefined
          ? `the regular expression ${JSON.stringify(expression)} is not plain text; the check does not test the body for it`
          : `the check tests the body for one text only; ${JSON.stringify(expression)} is not tested`,
        field,
      );
    }
  }
  return keyword;
}

/**
 * The target without its `user:password@`, and who signs the request in. Go's HTTP client sends
 * a URL's credentials as basic auth unless the request has an Authorization header already
 * (net/http client.go, send); the module's `basic_auth`, `bearer_token` and `authorization` are
 * added later, only to a request without one (prometheus/common config/http_config.go). So a
 * header of the module's beats the URL's credentials, and those beat the module's sign-in
 * settings, which are reported. `signedIn` says the URL's credentials were taken.
 */
function urlCredentials(
  target: string,
  http: Record<string, unknown>,
  scope: ItemScope,
  config: Record<string, unknown>,
  headers: Record<string, string>,
): { url: string; signedIn: boolean } {
  const headerSignsIn = hasHeader(headers, 'authorization');
  const fromUrl: Record<string, unknown> = {};
  const url = withoutUrlCredentials(target, scope, 'target', fromUrl, !headerSignsIn) ?? target;
  if (url === target) return { url, signedIn: false };
  if (headerSignsIn) {
    if (fromUrl.basicAuthUser !== undefined) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        "the user name in the URL was left out: the module's Authorization header signs the request in, as in the exporter",
        'target',
      );
    }
    return { url, signedIn: false };
  }
  Object.assign(config, fromUrl);
  reportSignInSettings(http, scope, 'the credentials in the target URL sign the request in');
  return { url, signedIn: true };
}

/** The module's sign-in settings, left out because `reason`: each one set is reported. */
function reportSignInSettings(http: Record<string, unknown>, scope: ItemScope, reason: string): void {
  for (const field of ['basic_auth', 'bearer_token', 'bearer_token_file', 'authorization']) {
    const value = http[field];
    if (value !== undefined && value !== null && value !== '') scope.warn('UNSUPPORTED_SETTING', `${field} was left out: ${reason}, as in the exporter`, field);
  }
}

/** The module's sign-in: basic auth or an Authorization header, unless one of its headers signs in already. */
function authorization(http: Record<string, unknown>, scope: ItemScope, config: Record<string, unknown>, headers: Record<string, string>): void {
  const signedIn = hasHeader(headers, 'authorization');
  if (signedIn) reportSignInSettings(http, scope, "the module's Authorization header signs the request in");
  if (!signedIn && isRecord(http.basic_auth)) {
    const user = importUserName(textValue(http.basic_auth.username)?.trim(), scope, 'basic_auth.username');
    if (user) config.basicAuthUser = user;
    if (http.basic_auth.password || http.basic_auth.password_file) {
      config.basicAuthPassword = scope.secretFor('PASSWORD', 'the basic-auth password', 'basic_auth.password');
    }
  }
  const auth = isRecord(http.authorization) ? http.authorization : undefined;
  if (!signedIn && (http.bearer_token || http.bearer_token_file || auth)) {
    const type = textValue(auth?.type)?.trim() || 'Bearer';
    const credentials = scope.secretFor('TOKEN', 'the credentials of the Authorization header', auth ? 'authorization.credentials' : 'bearer_token');
    setHeader(headers, 'Authorization', `${type} ${credentials}`, scope, 'headers');
  }
  if (http.oauth2 !== undefined && http.oauth2 !== null) {
    scope.warn('SECRET_DROPPED', 'the OAuth2 client credentials (oauth2) were not imported; until set up in svc the request is sent without a token', 'oauth2');
  }
}

/** The check an `http` module makes of a target (prefixed with http:// when it has no scheme, as the exporter does). */
export function httpProbe(raw: string, http: Record<string, unknown>, scope: ItemScope): ProbeCheck {
  const target = /^https?:\/\//i.test(raw) ? raw : `http://${raw}`;
  const config: Record<string, unknown> = {};
  const headers = isRecord(http.headers) ? importHeaders(Object.entries(http.headers), scope, 'headers') : {};
  config.method = importHttpMethod(textValue(http.method), scope, 'method');
  config.body = importRequestBody(textValue(http.body) || undefined, scope, 'body');
  if (Array.isArray(http.valid_status_codes) && http.valid_status_codes.length > 0) {
    config.expectedStatusCodes = importStatusCodes(
      http.valid_status_codes.map((code) => integerValue(code) ?? code),
      scope,
      'valid_status_codes',
    );
  }
  const noFollow = flagValue(http.no_follow_redirects);
  const follow = flagValue(http.follow_redirects) ?? (noFollow === undefined ? undefined : !noFollow);
  if (follow !== undefined) config.followRedirects = follow;
  config.ignoreTlsErrors = readTlsConfig(http.tls_config, scope, 'tls_config').ignoreTlsErrors;
  config.keyword = bodyKeyword(http, scope);
  const credentials = urlCredentials(target, http, scope, config, headers);
  if (!credentials.signedIn) authorization(http, scope, config, headers);
  if (Object.keys(headers).length > 0) config.headers = headers;

  if (flagValue(http.fail_if_ssl) === true) unsupported(scope, 'fail_if_ssl', 'failing when the response came over TLS');
  if (flagValue(http.fail_if_not_ssl) === true && !(target.toLowerCase().startsWith('https://') && follow === false)) {
    unsupported(scope, 'fail_if_not_ssl', 'failing when the final response did not come over TLS (a redirect may lead to plain HTTP)');
  }
  const reported: [string, string][] = [
    ['valid_http_versions', 'accepting only some HTTP versions'],
    ['fail_if_header_matches', 'tests of response headers'],
    ['fail_if_header_not_matches', 'tests of response headers'],
    ['fail_if_body_json_matches_cel', 'CEL tests of the JSON body'],
    ['fail_if_body_json_not_matches_cel', 'CEL tests of the JSON body'],
    ['body_file', 'a request body read from a file'],
    ['http_headers', 'headers with several values or read from files'],
    ['compression', 'requiring a compressed response'],
    ['body_size_limit', 'a limit on the body size'],
    ['enable_http3', 'HTTP/3'],
    ['proxy_url', 'requests through a proxy'],
  ];
  for (const [field, what] of reported) {
    const value = http[field];
    if (value !== undefined && value !== null && value !== false && value !== '' && !(Array.isArray(value) && value.length === 0))
      unsupported(scope, field, what);
  }
  reportIpProtocol(http, scope);
  return { type: 'http', target: credentials.url, config };
}
