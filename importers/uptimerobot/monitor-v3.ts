import { DNS_RECORD_TYPES } from '../../checks/index.js';
import { isRecord } from '../shared/input-text.js';
import { importKeywordText } from '../shared/http-request.js';
import { statusCodeList, statusCodeMatcher } from '../../checks/status-codes.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, flagValue, integerValue, numberValue, textValue } from '../shared/values.js';
import { mapApiAssertions } from './api-assertions.js';
import { V3_TYPES, type PortService } from './codes.js';
import { warnDropped } from './dropped-settings.js';
import type { RequestParts } from './http-request.js';
import type { Keyword, MonitorSpec } from './monitor-spec.js';
import { importExpectedValues } from '../shared/expected-values.js';

const FIELDS = { url: 'url', port: 'port', interval: 'interval', timeout: 'timeout', subType: 'type' };
const TCP: PortService = { name: 'custom', type: 'tcp' };
const DEFAULT_UP = ['2xx', '3xx'];

/** An enum string folded for comparison: `ALERT_NOT_EXISTS`, `alertNotExists` and `alert-not-exists` agree. */
function fold(value: unknown): string {
  return (textValue(value) ?? '').toLowerCase().replace(/[-_ ]/g, '');
}

function keyword(monitor: Record<string, unknown>, scope: ItemScope): Keyword | undefined {
  const value = textValue(monitor.keywordValue) ?? '';
  if (importKeywordText(value, scope, 'keywordValue') === undefined) return undefined;
  if (value === '') {
    scope.warn('UNSUPPORTED_SETTING', 'the keyword monitor has no keywordValue; it is imported as a plain HTTP check', 'keywordValue');
    return undefined;
  }
  const type = fold(monitor.keywordType);
  if (type !== 'alertexists' && type !== 'alertnotexists') {
    scope.warn('VALUE_ADJUSTED', `keywordType is ${describeValue(monitor.keywordType)}; read as ALERT_NOT_EXISTS`, 'keywordType');
  }
  const caseType = fold(monitor.keywordCaseType);
  return {
    value,
    expect: type === 'alertexists' ? 'absent' : 'present',
    caseSensitive: !(caseType === '1' || caseType.includes('insensitive')),
  };
}

function statusCodes(raw: unknown, scope: ItemScope): (number | string)[] {
  const list = Array.isArray(raw) && raw.length > 0 ? raw : DEFAULT_UP;
  const codes: (number | string)[] = [];
  for (const entry of list) {
    const text = (textValue(entry) ?? '').trim().toLowerCase();
    const family = /^([1-5])xx$/.exec(text);
    if (family) codes.push(`${family[1]}00-${family[1]}99`);
    else if (/^[1-5]\d\d$/.test(text)) codes.push(Number(text));
    else scope.warn('UNSUPPORTED_SETTING', `${describeValue(entry)} is not a status code or class such as 2xx; left out`, 'successHttpResponseCodes');
  }
  // Adjacent classes (2xx and 3xx) read best as one range.
  return codes.length > 0 ? statusCodeList(statusCodeMatcher(codes)) : ['200-399'];
}

function request(monitor: Record<string, unknown>): RequestParts {
  const auth = fold(monitor.authType);
  const postType = fold(monitor.postValueType);
  return {
    method: textValue(monitor.httpMethodType)?.trim().toUpperCase() || undefined,
    body: monitor.postValueData ?? monitor.postValueKvData,
    bodyKind: postType.includes('keyvalue') || postType === 'kv' ? 'key-value' : postType.includes('raw') ? 'raw' : undefined,
    json: postType.includes('json') ? true : undefined,
    headers: monitor.customHttpHeaders,
    user: textValue(monitor.httpUsername),
    hasPassword: (textValue(monitor.httpPassword) ?? '') !== '',
    authKind: auth === '' || auth === 'none' ? 'none' : auth.includes('basic') ? 'basic' : auth.includes('digest') ? 'digest' : 'other',
    fields: { method: 'httpMethodType', body: 'postValueData', headers: 'customHttpHeaders', user: 'httpUsername', password: 'httpPassword' },
  };
}

function dnsRecords(raw: unknown, scope: ItemScope): { recordType: string; values: string[] } {
  const records = isRecord(raw) ? raw : {};
  const present = Object.entries(records).filter(([, values]) => Array.isArray(values) && values.length > 0);
  const [first, ...others] = present;
  for (const [type] of others) {
    scope.warn('UNSUPPORTED_SETTING', `a check queries one record type; the expected ${type.toUpperCase()} records were left out`, `config.dnsRecords.${type}`);
  }
  if (!first) return { recordType: 'A', values: [] };
  const recordType = DNS_RECORD_TYPES.find((type) => type === first[0].toUpperCase());
  if (!recordType) {
    scope.warn('UNSUPPORTED_SETTING', `${first[0].toUpperCase()} records cannot be queried; an A query is made instead`, `config.dnsRecords.${first[0]}`);
    return { recordType: 'A', values: [] };
  }
  const values = (first[1] as unknown[]).map((value) => textValue(value) ?? '').filter((value) => value !== '');
  return { recordType, values: importExpectedValues(values, scope, `config.dnsRecords.${first[0]}`) };
}

function tagLabels(monitor: Record<string, unknown>): [string, string][] {
  const tags = [...(Array.isArray(monitor.tags) ? monitor.tags : []), ...(Array.isArray(monitor.tagNames) ? monitor.tagNames : [])];
  return tags.flatMap((tag): [string, string][] => {
    const name = isRecord(tag) ? textValue(tag.name) : textValue(tag);
    return name ? [[name, '']] : [];
  });
}

function certificateDays(config: Record<string, unknown>, scope: ItemScope): number | undefined {
  const days = Array.isArray(config.sslExpirationPeriodDays)
    ? config.sslExpirationPeriodDays.map(integerValue).filter((day): day is number => day !== undefined && day > 0)
    : [];
  if (days.length === 0) return undefined;
  const threshold = Math.min(365, Math.max(...days));
  scope.warn(
    'VALUE_ADJUSTED',
    `certificate expiry reminders (${days.join(', ')} days before) became a failure when the certificate expires within ${threshold} days`,
    'config.sslExpirationPeriodDays',
  );
  return threshold;
}

/** Reads a v3 monitor (string types). Returns the spec, or why the monitor is skipped. */
export function readV3Monitor(monitor: Record<string, unknown>, name: string, scope: ItemScope): MonitorSpec | { unsupported: string } {
  const kind = V3_TYPES[(textValue(monitor.type) ?? '').trim().toUpperCase()];
  if (!kind) return { unsupported: `monitor type ${describeValue(monitor.type)} has no equivalent check type` };
  warnDropped(monitor, { alertContacts: 'assignedAlertContacts', maintenanceWindows: 'maintenanceWindows' }, scope);
  const config = isRecord(monitor.config) ? monitor.config : {};
  const http = kind === 'http' || kind === 'keyword' || kind === 'api';
  const assertions = kind === 'api' ? mapApiAssertions(config.apiAssertions, scope) : undefined;
  const checkSsl = flagValue(monitor.checkSSLErrors);
  const threshold = integerValue(monitor.responseTimeThreshold);
  const udp = isRecord(config.udp) ? config.udp : {};
  if (kind === 'udp' && udp.packetLossThreshold !== undefined) {
    scope.warn('UNSUPPORTED_SETTING', 'the packet loss threshold has no equivalent; one reply is enough', 'config.udp.packetLossThreshold');
  }
  const port = integerValue(monitor.port);
  return {
    name,
    kind,
    url: textValue(monitor.url) ?? '',
    ...(port === undefined ? {} : { port }),
    ...(kind === 'port' ? { portService: TCP } : {}),
    ...(kind === 'keyword' ? { keyword: keyword(monitor, scope) } : {}),
    ...(http
      ? {
          request: request(monitor),
          statusCodes: assertions?.statusCodes ?? statusCodes(monitor.successHttpResponseCodes, scope),
          jsonQueries: assertions?.jsonQueries,
          ignoreTlsErrors: checkSsl === undefined ? undefined : !checkSsl,
          followRedirects: flagValue(monitor.followRedirections),
          certificateDays: certificateDays(config, scope),
        }
      : {}),
    ...(kind === 'dns' ? { dns: dnsRecords(config.dnsRecords, scope) } : {}),
    ...(kind === 'udp' ? { udpPayload: textValue(udp.payload) } : {}),
    ...(threshold !== undefined && threshold > 0 ? { degradedResponseMs: threshold } : {}),
    intervalSeconds: numberValue(monitor.interval),
    timeoutSeconds: numberValue(monitor.timeout) || undefined,
    graceSeconds: kind === 'heartbeat' ? integerValue(monitor.gracePeriod) : undefined,
    enabled: fold(monitor.status) !== 'paused',
    labels: tagLabels(monitor),
    fields: FIELDS,
  };
}
