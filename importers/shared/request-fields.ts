import type { ItemScope } from './item-scope.js';

// Request headers and accepted status codes arrive from several sources in several shapes (a
// map, a list of name/value pairs, JSON inside a string). These helpers turn the entries into
// what the catalog accepts, and say what they dropped.

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const MAX_HEADERS = 50;
const MAX_HEADER_VALUE = 8192;

// Headers whose value is a credential: dropped with SECRET_DROPPED, never imported.
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie|private-token)$|token|secret|passw|api[-_]?key|auth[-_]?key|signature|credential/i;

/** Whether a header (or gRPC metadata) named `name` carries a credential. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name);
}

/**
 * Request headers the catalog accepts, from the source's name/value pairs. Credential
 * headers are dropped with `SECRET_DROPPED`, unusable names and values with
 * `UNSUPPORTED_SETTING`, headers beyond 50 with `VALUE_ADJUSTED`; warnings name
 * `field.<header>`. Names compare case-insensitively; a later header replaces an earlier one.
 */
export function importHeaders(
  entries: Iterable<readonly [string, unknown]>,
  scope: ItemScope,
  field: string,
  namePattern: RegExp = HEADER_NAME,
): Record<string, string> {
  const headers = new Map<string, [string, string]>();
  let dropped = 0;
  for (const [rawName, rawValue] of entries) {
    const name = rawName.trim();
    const where = `${field}.${name}`;
    if (isCredentialHeader(name)) {
      scope.warn('SECRET_DROPPED', `the ${name} header carries a credential and was not imported: re-enter it`, where);
      continue;
    }
    if (!namePattern.test(name) || name === '__proto__') {
      scope.warn('UNSUPPORTED_SETTING', `the header name ${JSON.stringify(name)} is not valid and was left out`, field);
      continue;
    }
    const value = typeof rawValue === 'number' || typeof rawValue === 'boolean' ? String(rawValue) : rawValue;
    if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE) {
      scope.warn('UNSUPPORTED_SETTING', `the value of the ${name} header is not text of at most ${MAX_HEADER_VALUE} characters and was left out`, where);
      continue;
    }
    const key = name.toLowerCase();
    if (!headers.has(key) && headers.size >= MAX_HEADERS) {
      dropped++;
      continue;
    }
    headers.set(key, [name, value]);
  }
  if (dropped > 0) scope.warn('VALUE_ADJUSTED', `${dropped} header(s) left out: a check has at most ${MAX_HEADERS}`, field);
  const result: Record<string, string> = {};
  for (const [name, value] of headers.values()) result[name] = value;
  return result;
}

/** Whether `headers` sets `name` (case-insensitively). */
export function hasHeader(headers: Record<string, string>, name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === wanted);
}

const STATUS_CODE = /^([1-5]\d\d)$/;
const STATUS_RANGE = /^([1-5]\d\d)\s*-\s*([1-5]\d\d)$/;
const STATUS_CLASS = /^([1-5])xx$/i;

function statusCode(value: unknown): number | string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 100 && value <= 599 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (STATUS_CODE.test(text)) return Number(text);
  const range = STATUS_RANGE.exec(text);
  if (range) return Number(range[1]) <= Number(range[2]) ? `${range[1]}-${range[2]}` : undefined;
  const statusClass = STATUS_CLASS.exec(text);
  return statusClass ? `${statusClass[1]}00-${statusClass[1]}99` : undefined;
}

/**
 * Accepted status codes the catalog accepts (codes, "200-299" ranges, "2xx" classes), from
 * the source's list. Unreadable entries are dropped with `VALUE_ADJUSTED`; undefined (the
 * catalog's default, 200-299) when nothing usable is left, with a warning if something was
 * given. At most 50 are kept.
 */
export function importStatusCodes(values: readonly unknown[], scope: ItemScope, field: string): (number | string)[] | undefined {
  const codes: (number | string)[] = [];
  for (const value of values) {
    const code = statusCode(value);
    if (code === undefined) {
      scope.warn('VALUE_ADJUSTED', `the accepted status ${JSON.stringify(value)} is not a status code or range and was left out`, field);
    } else if (!codes.includes(code)) codes.push(code);
  }
  if (codes.length > 50) {
    scope.warn('VALUE_ADJUSTED', `only the first 50 of ${codes.length} accepted statuses were kept`, field);
    codes.length = 50;
  }
  if (codes.length === 0) {
    if (values.length > 0) scope.warn('VALUE_ADJUSTED', 'no usable accepted status is left; 200-299 is accepted', field);
    return undefined;
  }
  return codes;
}
