import { HTTP_METHODS } from '../../checks/index.js';
import { hasHeader, importHeaders, setHeader } from '../shared/headers.js';
import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, textValue } from '../shared/values.js';
import { importUserName } from '../shared/user-name.js';

/** The request settings of an HTTP or keyword monitor, read from either API version. */
export interface RequestParts {
  /** The method name, uppercase, or undefined for the default (GET). */
  method?: string;
  /** The post value: text (raw) or an object (key-value pairs). */
  body?: unknown;
  bodyKind?: 'raw' | 'key-value';
  /** Whether the body is sent as JSON; undefined when the source does not say. */
  json?: boolean;
  headers?: unknown;
  user?: string;
  /** Whether a password was set (it is never read into the check). */
  hasPassword: boolean;
  authKind: 'basic' | 'digest' | 'none' | 'other';
  /** The source's field names, for warnings. */
  fields: { method: string; body: string; headers: string; user: string; password: string };
}

/** The request part of an http check's config. */
export interface RequestConfig {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  basicAuthUser?: string;
  /** A reference to the check's secret: the source's password never carries over. */
  basicAuthPassword?: string;
}

const MAX_BODY = 65_536;

function headerEntries(raw: unknown): [string, unknown][] {
  if (isRecord(raw)) return Object.entries(raw);
  if (Array.isArray(raw)) {
    return raw.flatMap((entry): [string, unknown][] => (isRecord(entry) && typeof entry.name === 'string' ? [[entry.name, entry.value]] : []));
  }
  return [];
}

function keyValueObject(body: unknown): Record<string, unknown> | undefined {
  if (isRecord(body)) return body;
  if (typeof body !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function bodyText(parts: RequestParts, scope: ItemScope): { body?: string; contentType?: string } {
  const { body, fields } = parts;
  if (body === undefined || body === null || body === '') return {};
  const pairs = parts.bodyKind !== 'raw' ? keyValueObject(body) : undefined;
  if (pairs && (parts.bodyKind === 'key-value' || isRecord(body))) {
    if (parts.json === false) {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(pairs)) form.append(key, textValue(value) ?? JSON.stringify(value));
      return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
    }
    return { body: JSON.stringify(pairs), contentType: 'application/json' };
  }
  const text = textValue(body);
  if (text === undefined) {
    scope.warn('UNSUPPORTED_SETTING', `the request body is ${describeValue(body)}, not text; it was left out`, fields.body);
    return {};
  }
  return { body: text, ...(parts.json === undefined ? {} : { contentType: parts.json ? 'application/json' : 'text/html' }) };
}

/** The method, headers, body and basic-auth user of an http check, with warnings for what is dropped. */
export function requestConfig(parts: RequestParts, scope: ItemScope): RequestConfig {
  const { fields } = parts;
  let method = parts.method;
  if (method !== undefined && !(HTTP_METHODS as readonly string[]).includes(method)) {
    scope.warn('UNSUPPORTED_SETTING', `the method ${JSON.stringify(method)} is not supported; GET is used`, fields.method);
    method = undefined;
  }
  const headers = importHeaders(headerEntries(parts.headers), scope, fields.headers);
  let { body, contentType } = bodyText(parts, scope);
  if (body !== undefined && (method === undefined || method === 'GET' || method === 'HEAD')) {
    scope.warn('UNSUPPORTED_SETTING', `a ${method ?? 'GET'} request sends no body; the post value was left out`, fields.body);
    body = undefined;
  }
  if (body !== undefined && body.length > MAX_BODY) {
    scope.warn('UNSUPPORTED_SETTING', `the request body is longer than ${MAX_BODY} characters; it was left out`, fields.body);
    body = undefined;
  }
  if (body !== undefined && contentType && !hasHeader(headers, 'content-type')) {
    setHeader(headers, 'Content-Type', contentType, scope, fields.headers);
  }
  let basicAuthUser: string | undefined;
  const user = parts.user?.trim();
  if (user) {
    if (parts.authKind === 'basic' || parts.authKind === 'none') basicAuthUser = importUserName(user, scope, fields.user);
    else {
      scope.warn(
        'UNSUPPORTED_SETTING',
        `${parts.authKind === 'digest' ? 'digest' : 'this kind of'} HTTP authentication is not supported; the user name was not kept`,
        fields.user,
      );
    }
  }
  let basicAuthPassword: string | undefined;
  if (parts.hasPassword && (parts.authKind === 'basic' || parts.authKind === 'none')) {
    basicAuthPassword = scope.secretFor('PASSWORD', 'the HTTP authentication password', fields.password);
  } else if (parts.hasPassword) {
    scope.warn(
      'SECRET_DROPPED',
      'the HTTP authentication password was not imported (secrets never carry over, and this kind of authentication is not supported)',
      fields.password,
    );
  }
  return {
    method,
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    body,
    ...(basicAuthUser === undefined ? {} : { basicAuthUser }),
    ...(basicAuthPassword === undefined ? {} : { basicAuthPassword }),
  };
}
