import type { ItemScope } from './item-scope.js';
import { describeValue, textValue } from './values.js';

// A header that carries credentials never reaches a check with its value: it becomes a
// reference to an organization secret (the catalog accepts an Authorization header only so).
// Matching is on the name: a header whose name says it holds a key, token, secret, password or
// cookie is one.
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|passw|api[-_]?key|apikey|auth[-_]?key|session|credential|signature/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const MAX_HEADERS = 50;
const MAX_VALUE_LENGTH = 8192;
// `${VAR}`: a placeholder the source fills from its environment (Gatus). In a credential it
// names the secret, so the check refers to the secret of that name.
const ENV_PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_.-]{0,63})\}/g;
// "Bearer abc": the scheme stays in the check, the credential becomes the reference.
const AUTH_SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)\s+\S/;

/** Whether a header with this name carries credentials and must never be stored in a check. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name.trim());
}

/**
 * The value a credential header gets in the check: its `${VAR}` placeholders as references to
 * the secrets VAR, or else a reference to a secret named after the check and the header (with
 * the scheme of an Authorization value kept), each with a `SECRET_DROPPED` warning saying which
 * secret to set. The source's credential itself is never kept.
 */
function credentialReference(name: string, value: string | undefined, scope: ItemScope, where: string): string {
  const what = `the credential in the ${name} header`;
  if (value !== undefined && [...value.matchAll(ENV_PLACEHOLDER)].length > 0) {
    return value.replace(ENV_PLACEHOLDER, (_placeholder, variable: string) => scope.namedSecret(variable, what, where));
  }
  const reference = scope.secretFor(name, what, where);
  const scheme = /^(proxy-)?authorization$/i.test(name) ? value?.match(AUTH_SCHEME)?.[1] : undefined;
  return scheme ? `${scheme} ${reference}` : reference;
}

/**
 * Turns a source's request headers into the catalog's `headers`: credential headers refer to
 * secrets instead of holding their value (`SECRET_DROPPED` says which to set), names that are
 * not valid header names and values that are not text are left out (`UNSUPPORTED_SETTING`),
 * and at most 50 are kept. `field` is the source's
 * name of the header list; warnings name `<field>.<header>`.
 */
export function importHeaders(entries: Iterable<readonly [string, unknown]>, scope: ItemScope, field: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let count = 0;
  for (const [rawName, rawValue] of entries) {
    const name = rawName.trim();
    const where = `${field}.${rawName}`;
    if (count >= MAX_HEADERS) {
      scope.warn('UNSUPPORTED_SETTING', `the header ${JSON.stringify(rawName)} was left out: at most ${MAX_HEADERS} headers are kept`, where);
      continue;
    }
    if (!HEADER_NAME.test(name) || name === '__proto__') {
      scope.warn('UNSUPPORTED_SETTING', `${JSON.stringify(rawName)} is not a valid header name; the header was left out`, where);
      continue;
    }
    const value = textValue(rawValue);
    if (value === undefined || value.length > MAX_VALUE_LENGTH) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        value === undefined
          ? `the value of the ${name} header is ${describeValue(rawValue)}, not text; the header was left out`
          : `the value of the ${name} header is longer than ${MAX_VALUE_LENGTH} characters; the header was left out`,
        where,
      );
      continue;
    }
    headers[name] = isSecretHeader(name) ? credentialReference(name, value, scope, where) : value;
    count++;
  }
  return headers;
}

/** Whether `headers` hold the header `name`, in any case. */
export function hasHeader(headers: Readonly<Record<string, string>>, name: string): boolean {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === lower);
}

/**
 * Sets a header the check needs besides the source's own (its sign-in, a Content-Type),
 * replacing one of the same name in any case. With 50 headers already, the source's last one
 * gives way, with an `UNSUPPORTED_SETTING` warning on `<field>.<header>`.
 */
export function setHeader(headers: Record<string, string>, name: string, value: string, scope: ItemScope, field: string): void {
  const names = Object.keys(headers);
  const same = names.find((key) => key.toLowerCase() === name.toLowerCase());
  if (same !== undefined) {
    delete headers[same];
  } else if (names.length >= MAX_HEADERS) {
    const last = names[names.length - 1]!;
    delete headers[last];
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the header ${JSON.stringify(last)} was left out to make room for ${name}: at most ${MAX_HEADERS} headers are kept`,
      `${field}.${last}`,
    );
  }
  headers[name] = value;
}
