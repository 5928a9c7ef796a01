import type { ItemScope } from './item-scope.js';
import { describeValue, textValue } from './values.js';

// The catalog refuses Authorization headers; other headers that carry credentials are just
// as secret, so they are dropped too. Matching is on the name: a header whose name says it
// holds a key, token, secret, password or cookie never reaches a check.
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|passw|api[-_]?key|apikey|auth[-_]?key|session|credential|signature/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const MAX_HEADERS = 50;
const MAX_VALUE_LENGTH = 8192;

/** Whether a header with this name carries credentials and must never be stored in a check. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name.trim());
}

/**
 * Turns a source's request headers into the catalog's `headers`: credential headers are
 * dropped (`SECRET_DROPPED`), names that are not valid header names and values that are not
 * text are left out (`UNSUPPORTED_SETTING`), and at most 50 are kept. `field` is the source's
 * name of the header list; warnings name `<field>.<header>`.
 */
export function importHeaders(
  entries: Iterable<readonly [string, unknown]>,
  scope: ItemScope,
  field: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  let count = 0;
  for (const [rawName, rawValue] of entries) {
    const name = rawName.trim();
    const where = `${field}.${rawName}`;
    if (count >= MAX_HEADERS) {
      scope.warn('UNSUPPORTED_SETTING', `the header ${JSON.stringify(rawName)} was left out: at most ${MAX_HEADERS} headers are kept`, where);
      continue;
    }
    if (isSecretHeader(name)) {
      scope.warn(
        'SECRET_DROPPED',
        `the ${name} header carries credentials and was dropped: secrets never carry over and must be re-entered in svc`,
        where,
      );
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
    headers[name] = value;
    count++;
  }
  return headers;
}
