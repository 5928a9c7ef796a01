import { isRecord } from '../shared/input-text.js';
import { importKeywordText } from '../shared/http-request.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, flagValue, integerValue, numberValue, textValue } from '../shared/values.js';
import { V2_HTTP_METHODS, V2_PAUSED, V2_PORT_SERVICES, V2_TYPES, type PortService } from './codes.js';
import { warnDropped } from './dropped-settings.js';
import type { RequestParts } from './http-request.js';
import type { Keyword, MonitorSpec } from './monitor-spec.js';

// UptimeRobot counts 2xx and 3xx responses as up.
const UP_STATUSES = ['200-399'];

const FIELDS = { url: 'url', port: 'port', interval: 'interval', timeout: 'timeout', subType: 'sub_type' };

function keyword(monitor: Record<string, unknown>, scope: ItemScope): Keyword | undefined {
  const value = textValue(monitor.keyword_value) ?? '';
  if (importKeywordText(value, scope, 'keyword_value') === undefined) return undefined;
  if (value === '') {
    scope.warn('UNSUPPORTED_SETTING', 'the keyword monitor has no keyword_value; it is imported as a plain HTTP check', 'keyword_value');
    return undefined;
  }
  const type = integerValue(monitor.keyword_type);
  if (type !== 1 && type !== 2) {
    scope.warn('VALUE_ADJUSTED', `keyword_type is ${describeValue(monitor.keyword_type)}; read as 2 (alert when the keyword is missing)`, 'keyword_type');
  }
  const caseType = integerValue(monitor.keyword_case_type);
  return {
    value,
    // keyword_type 1 alerts when the keyword exists, so the page must not contain it.
    expect: type === 1 ? 'absent' : 'present',
    caseSensitive: caseType !== 1,
  };
}

function portService(monitor: Record<string, unknown>, scope: ItemScope): { service?: PortService; port?: number } {
  const subType = integerValue(monitor.sub_type);
  const port = integerValue(monitor.port);
  const known = subType === undefined ? undefined : V2_PORT_SERVICES[subType];
  if (known) return { service: known, ...(port === undefined ? {} : { port }) };
  if (subType !== undefined) {
    scope.warn('UNSUPPORTED_SETTING', `sub_type ${subType} is not a known port service; the port is checked over TCP`, 'sub_type');
  }
  return { service: V2_PORT_SERVICES[99], ...(port === undefined ? {} : { port }) };
}

function request(monitor: Record<string, unknown>, scope: ItemScope): RequestParts {
  const methodCode = integerValue(monitor.http_method);
  const method = methodCode === undefined || methodCode === 0 ? undefined : V2_HTTP_METHODS[methodCode];
  if (methodCode !== undefined && methodCode !== 0 && method === undefined) {
    scope.warn('UNSUPPORTED_SETTING', `http_method ${methodCode} is not a known method; GET is used`, 'http_method');
  }
  const postType = integerValue(monitor.post_type);
  const contentType = integerValue(monitor.post_content_type);
  const authType = integerValue(monitor.http_auth_type);
  return {
    method,
    body: monitor.post_value,
    bodyKind: postType === 1 ? 'key-value' : postType === 2 ? 'raw' : undefined,
    json: contentType === 1 ? true : contentType === 0 ? false : undefined,
    headers: monitor.custom_http_headers,
    user: textValue(monitor.http_username),
    hasPassword: (textValue(monitor.http_password) ?? '') !== '',
    authKind: authType === 2 ? 'digest' : authType === undefined || authType === 0 ? 'none' : authType === 1 ? 'basic' : 'other',
    fields: { method: 'http_method', body: 'post_value', headers: 'custom_http_headers', user: 'http_username', password: 'http_password' },
  };
}

/**
 * Reads a v2 monitor. Returns the spec, or why the monitor is skipped (`UNSUPPORTED_TYPE`
 * for types other than 1-5).
 */
export function readV2Monitor(monitor: Record<string, unknown>, name: string, scope: ItemScope): MonitorSpec | { unsupported: string } {
  const typeCode = integerValue(monitor.type);
  const kind = typeCode === undefined ? undefined : V2_TYPES[typeCode];
  if (!kind) return { unsupported: `monitor type ${describeValue(monitor.type)} has no equivalent check type` };
  warnDropped(monitor, { alertContacts: 'alert_contacts', maintenanceWindows: 'mwindows' }, scope);
  const http = kind === 'http' || kind === 'keyword';
  const ssl = isRecord(monitor.ssl) ? monitor.ssl : {};
  const ignoreTls = flagValue(monitor.ignore_ssl_errors) ?? flagValue(ssl.ignore_errors);
  const { service, port } = kind === 'port' ? portService(monitor, scope) : {};
  return {
    name,
    kind,
    url: textValue(monitor.url) ?? '',
    ...(port === undefined ? {} : { port }),
    ...(service === undefined ? {} : { portService: service }),
    ...(kind === 'keyword' ? { keyword: keyword(monitor, scope) } : {}),
    ...(http ? { request: request(monitor, scope), statusCodes: UP_STATUSES, ignoreTlsErrors: ignoreTls } : {}),
    intervalSeconds: numberValue(monitor.interval),
    timeoutSeconds: numberValue(monitor.timeout) || undefined,
    enabled: integerValue(monitor.status) !== V2_PAUSED,
    labels: [],
    fields: FIELDS,
  };
}
