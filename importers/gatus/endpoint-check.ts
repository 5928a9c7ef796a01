import { DNS_RECORD_TYPES } from '../../checks/index.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, textValue } from '../shared/values.js';
import type { ClientOptions } from './client-options.js';
import type { ConditionEffects } from './condition-effects.js';
import type { EndpointKind } from './endpoint-kind.js';
import type { EndpointRequest } from './endpoint-request.js';
import { importExpectedValues } from '../shared/expected-values.js';

/** Everything read from an endpoint that decides its check's `config`. */
export interface EndpointParts {
  kind: EndpointKind;
  effects: ConditionEffects;
  request: EndpointRequest;
  client: ClientOptions;
  /** The SSH user name, from `ssh.username` or the URL. */
  sshUser?: string;
  /** References to the secrets that hold the credentials the source had (never the credentials). */
  secrets: { password?: string; privateKey?: string };
  dns?: { recordType: string; resolver?: string };
}

function keywordOf(effects: ConditionEffects) {
  return effects.keyword === undefined ? undefined : { ...effects.keyword };
}

/**
 * Gatus's [BODY] of a DNS endpoint is one answer, the last (TXT answers joined by line breaks:
 * client/client.go QueryDNS), while the check looks for each expected value among all answers.
 * The verdicts differ when the server gives several answers, and always with two values.
 */
function warnLastAnswer(values: readonly string[], scope: ItemScope): void {
  const distinct = new Set(values).size;
  scope.warn(
    'UNSUPPORTED_SETTING',
    distinct > 1
      ? `[BODY] is compared with ${distinct} different values, and Gatus's [BODY] is one answer (the last), so it was down on every check; ` +
          'the check is up when every value is among the answers'
      : 'Gatus compares [BODY] with the last answer only (TXT answers joined by line breaks); the check is up when the value is among the answers, so with several answers it may be up where Gatus was down',
    'conditions',
  );
}

/** The type-specific `config` of the check an endpoint becomes. */
export function endpointConfig(parts: EndpointParts, scope: ItemScope): Record<string, unknown> {
  const { kind, effects, request, client } = parts;
  const invert = effects.invert || undefined;
  switch (kind.type) {
    case 'http':
      return {
        method: request.method,
        headers: request.headers,
        body: request.body,
        expectedStatusCodes: effects.statusCodes,
        keyword: keywordOf(effects),
        jsonQueries: effects.jsonQueries.length > 0 ? effects.jsonQueries : undefined,
        basicAuthUser: kind.user,
        basicAuthPassword: parts.secrets.password,
        followRedirects: client.followRedirects,
        ignoreTlsErrors: client.ignoreTlsErrors,
        certificateExpiryDays: effects.certificateDays,
        invert,
      };
    case 'websocket':
      return {
        headers: request.headers,
        message: request.body,
        keyword: keywordOf(effects),
        ignoreTlsErrors: client.ignoreTlsErrors,
        invert,
      };
    case 'tcp':
    case 'udp':
      return { send: request.body, keyword: keywordOf(effects), invert };
    case 'grpc':
      return { useTls: kind.secure, ignoreTlsErrors: client.ignoreTlsErrors, keyword: keywordOf(effects), invert };
    case 'tls':
      // Gatus verifies the certificate on every TLS connection, so an expired one already
      // fails; without an expiry condition the threshold is the smallest one.
      return { expiryThresholdDays: effects.certificateDays ?? 1, startTls: kind.scheme === 'starttls', invert };
    case 'ssh':
      return {
        username: parts.sshUser,
        password: parts.secrets.password,
        privateKey: parts.secrets.privateKey,
        command: request.command,
        expectedExitCode: effects.exitCode,
        invert,
      };
    case 'dns':
      if (effects.dnsValues.length > 0) warnLastAnswer(effects.dnsValues, scope);
      return {
        recordType: parts.dns?.recordType,
        resolver: parts.dns?.resolver,
        expectedRcode: effects.rcode,
        expectedValues: effects.dnsValues.length > 0 ? importExpectedValues(effects.dnsValues, scope, 'conditions') : undefined,
        invert,
      };
    case 'icmp':
      return { invert };
    default:
      scope.warn('UNSUPPORTED_SETTING', `no settings are carried over for a ${kind.type} check`);
      return {};
  }
}

/** Reads a `dns` block: `query-type` as the record type (A when unknown) and `query-name` as the target. */
export function readDnsBlock(dns: Record<string, unknown>, scope: ItemScope): { recordType: string; name: string } {
  const rawType = textValue(dns['query-type'])?.trim().toUpperCase() ?? '';
  let recordType = DNS_RECORD_TYPES.find((type) => type === rawType) ?? 'A';
  if (rawType === '') recordType = 'A';
  else if (recordType !== rawType) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the record type ${describeValue(dns['query-type'])} is not supported (${DNS_RECORD_TYPES.join(', ')}); A is queried instead`,
      'dns.query-type',
    );
  }
  return { recordType, name: textValue(dns['query-name'])?.trim() ?? '' };
}
