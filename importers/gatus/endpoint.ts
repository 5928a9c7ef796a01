import { isRecord } from '../shared/input-text.js';
import type { ConversionBuilder } from '../shared/conversion-builder.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, flagValue, textValue } from '../shared/values.js';
import { dropAlerts } from './alerts.js';
import { readClientOptions } from './client-options.js';
import { mapConditions } from './condition-effects.js';
import { endpointConfig, readDnsBlock, type EndpointParts } from './endpoint-check.js';
import { dnsResolver, endpointKind, type EndpointKind } from './endpoint-kind.js';
import { endpointLabels } from './endpoint-labels.js';
import { readRequest } from './endpoint-request.js';
import { registrableDomain } from './registrable-domain.js';
import { readDurationSeconds } from './interval.js';
import { credentialReference, keepPlaceholders, unresolvedPlaceholders } from './keep-placeholders.js';
import { importUserName } from '../shared/user-name.js';

/** Reads `enabled` (default true), warning when it is neither true nor false. */
export function readEnabled(raw: unknown, scope: ItemScope): boolean {
  if (raw === undefined || raw === null) return true;
  const enabled = flagValue(raw);
  if (enabled === undefined) {
    scope.warn('VALUE_ADJUSTED', `enabled is ${describeValue(raw)}, not true or false; the check is enabled`, 'enabled');
  }
  return enabled ?? true;
}

/** An endpoint's check kind, with the record type when it is a DNS endpoint. */
type ReadKind = EndpointKind & { recordType?: string };

/** Why an endpoint is skipped before it is read any further. */
interface Skip {
  skip: 'UNSUPPORTED_TYPE' | 'INVALID_ITEM';
  message: string;
  /** The field at fault, when not the url. */
  field?: string;
}

function readKind(endpoint: Record<string, unknown>, scope: ItemScope): ReadKind | Skip {
  const url = textValue(endpoint.url)?.trim() ?? '';
  if (isRecord(endpoint.dns)) {
    const { recordType, name } = readDnsBlock(endpoint.dns, scope);
    if (name === '') return { skip: 'INVALID_ITEM', message: 'the DNS endpoint has no dns.query-name' };
    const unresolvedName = unresolvedPlaceholders(name, 'DNS query name');
    if (unresolvedName) return { skip: 'INVALID_ITEM', message: unresolvedName, field: 'dns.query-name' };
    const unresolvedResolver = unresolvedPlaceholders(url, 'resolver address');
    if (unresolvedResolver) return { skip: 'INVALID_ITEM', message: unresolvedResolver };
    return { type: 'dns', target: name, scheme: 'dns', hadPassword: false, secure: false, recordType };
  }
  if (url === '') return { skip: 'INVALID_ITEM', message: 'the endpoint has no url' };
  const kind = endpointKind(url);
  if ('code' in kind) return { skip: kind.code, message: kind.message };
  // A URL keeps its placeholders (with a warning); a host or port cannot.
  const unresolved = kind.type === 'http' || kind.type === 'websocket' ? undefined : unresolvedPlaceholders(kind.target, 'address');
  if (unresolved) return { skip: 'INVALID_ITEM', message: unresolved };
  keepPlaceholders(scope, kind.target, 'url');
  return kind;
}

function readSshUser(endpoint: Record<string, unknown>, kind: EndpointKind, scope: ItemScope, secrets: EndpointParts['secrets']): string | undefined {
  const ssh = endpoint.ssh;
  let user: string | undefined;
  if (isRecord(ssh)) {
    if (kind.type !== 'ssh') scope.warn('UNSUPPORTED_SETTING', `the ssh block has no meaning for a ${kind.type} check; ignored`, 'ssh');
    user = textValue(ssh.username)?.trim() || undefined;
    for (const key of ['password', 'private-key'] as const) {
      if (ssh[key] === undefined || ssh[key] === null || ssh[key] === '') continue;
      const what = `the SSH ${key === 'password' ? 'password' : 'private key'}`;
      if (kind.type !== 'ssh') {
        scope.warn('SECRET_DROPPED', `${what} (ssh.${key}) was not imported (secrets never carry over)`, `ssh.${key}`);
        continue;
      }
      const reference = credentialReference(scope, textValue(ssh[key]) ?? '', key === 'password' ? 'PASSWORD' : 'PRIVATE_KEY', what, `ssh.${key}`);
      if (key === 'password') secrets.password = reference;
      else secrets.privateKey = reference;
    }
  }
  if (kind.type !== 'ssh') return undefined;
  user ??= kind.user;
  keepPlaceholders(scope, user, 'ssh.username');
  return importUserName(user, scope, 'ssh.username');
}

// The password of `scheme://user:password@host`, for its `${VAR}` placeholder.
const URL_PASSWORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/@:]*:([^/@]*)@/;

/** The URL's password as a secret reference where the check signs in (http, ssh); reported otherwise. */
function urlCredentials(kind: EndpointKind, url: string, scope: ItemScope, secrets: EndpointParts['secrets']): void {
  if (kind.hadPassword && (kind.type === 'http' || kind.type === 'ssh')) {
    secrets.password = credentialReference(scope, URL_PASSWORD.exec(url)?.[1] ?? '', 'PASSWORD', 'the password in the url', 'url');
  } else if (kind.hadPassword) {
    scope.warn('SECRET_DROPPED', `the password in the url was not imported (secrets never carry over, and a ${kind.type} check does not sign in)`, 'url');
  }
  if (kind.user !== undefined && kind.type !== 'http' && kind.type !== 'ssh') {
    scope.warn('UNSUPPORTED_SETTING', `the user name in the url has no meaning for a ${kind.type} check; dropped`, 'url');
  }
}

/** Whether one of the endpoint's conditions is written about `[DOMAIN_EXPIRATION]`. */
function mentionsDomainExpiration(conditions: unknown): boolean {
  return Array.isArray(conditions) && conditions.some((condition) => textValue(condition)?.includes('[DOMAIN_EXPIRATION]') === true);
}

/** A registration changes over days: a domain check looks at most hourly, whatever the endpoint's interval. */
const DOMAIN_INTERVAL_SECONDS = 3600;

/** Converts one entry of `endpoints` into a check (or a skip), with its warnings. */
export function convertEndpoint(raw: unknown, index: number, alerting: unknown, builder: ConversionBuilder): void {
  const position = `endpoints[${index}]`;
  if (!isRecord(raw)) {
    builder.skip(builder.item(position), 'INVALID_ITEM', `the endpoint is ${describeValue(raw)}, not a mapping`);
    return;
  }
  const name = textValue(raw.name)?.trim() ?? '';
  const scope = builder.item(name || position);
  if (name === '') {
    builder.skip(scope, 'INVALID_ITEM', 'the endpoint has no name', 'name');
    return;
  }
  keepPlaceholders(scope, name, 'name');
  const kind = readKind(raw, scope);
  if ('skip' in kind) {
    builder.skip(scope, kind.skip, kind.message, kind.field ?? (kind.skip === 'INVALID_ITEM' ? 'url' : undefined));
    return;
  }
  const secrets: EndpointParts['secrets'] = {};
  urlCredentials(kind, textValue(raw.url)?.trim() ?? '', scope, secrets);

  const enabled = readEnabled(raw.enabled, scope);
  const intervalSeconds = scope.intervalSeconds(readDurationSeconds(raw.interval, 'interval', scope, 'the default of 60 s'), 'interval');
  const client = readClientOptions(raw.client, kind.type, scope);
  // Only a `[DOMAIN_EXPIRATION]` condition asks for the registrable domain: the public suffix
  // list is not searched for the endpoints of an export that has none.
  const domain = mentionsDomainExpiration(raw.conditions) ? registrableDomain(kind.target) : undefined;
  const certificates = kind.secure && kind.type !== 'grpc' && kind.type !== 'websocket';
  const effects = mapConditions(raw.conditions, { type: kind.type, certificates, domain: domain !== undefined }, scope);
  if (Array.isArray(raw.conditions)) {
    raw.conditions.forEach((condition, i) => keepPlaceholders(scope, textValue(condition), `conditions[${i}]`));
  }
  const request = readRequest(raw, kind.type, scope);
  const sshUser = readSshUser(raw, kind, scope, secrets);
  const thresholds = dropAlerts(raw.alerts, alerting, scope);
  const labels = endpointLabels(raw, scope);
  if (raw.ui !== undefined && raw.ui !== null) {
    scope.warn('UNSUPPORTED_SETTING', 'dashboard display settings (ui) are not imported', 'ui');
  }
  if (Array.isArray(raw['maintenance-windows']) && raw['maintenance-windows'].length > 0) {
    scope.warn('UNSUPPORTED_SETTING', 'maintenance windows are not imported; set them up in svc', 'maintenance-windows');
  }

  const responseBound = effects.maxResponseMs !== undefined && effects.maxResponseMs < (client.timeoutMs ?? Infinity);
  const timeoutMs = scope.timeoutMs(responseBound ? effects.maxResponseMs : client.timeoutMs, intervalSeconds, responseBound ? 'conditions' : 'client.timeout');
  const parts: EndpointParts = {
    kind,
    effects,
    request,
    client,
    secrets,
    ...(sshUser === undefined ? {} : { sshUser }),
    ...(kind.type === 'dns'
      ? { dns: { recordType: kind.recordType ?? 'A', resolver: textValue(raw.url)?.trim() ? dnsResolver(String(raw.url)) : undefined } }
      : {}),
  };
  // `[DOMAIN_EXPIRATION] >` watches the registration: a domain check. Alone it is the whole
  // endpoint; beside other conditions the endpoint becomes both checks, the domain one under
  // the name "<name> domain" (slug `<slug>-domain`), stable across re-runs.
  const domainCheck =
    domain !== undefined && effects.domainDays !== undefined
      ? {
          enabled,
          intervalSeconds: Math.max(intervalSeconds ?? 0, DOMAIN_INTERVAL_SECONDS),
          labels,
          type: 'domain' as const,
          target: domain,
          config: { expiryThresholdDays: effects.domainDays },
        }
      : undefined;
  if (domainCheck && effects.otherConditions === 0) {
    builder.emit(scope, { name, ...domainCheck });
    return;
  }
  builder.emit(scope, {
    name,
    type: kind.type,
    enabled,
    intervalSeconds,
    target: kind.target,
    config: endpointConfig(parts, scope),
    thresholds: { timeoutMs, ...thresholds },
    labels,
  });
  if (domainCheck) builder.emit(builder.item(name), { name: `${name} domain`, ...domainCheck });
}
