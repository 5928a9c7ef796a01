import { DNS_RECORD_TYPES } from '../../checks/index.js';
import { hostPortProblem } from '../../checks/hosts.js';
import { isRecord, type ItemScope } from '../converter.js';
import {
  MAX_QUERY_TEXT,
  certificatesVerified,
  hostOf,
  referSecret,
  hostPort,
  missing,
  operator,
  own,
  wholeNumber,
  type SkipItem,
  type TypeMapping,
} from './mapping.js';
import { flag, json, num, text, type MonitorRecord } from './monitor-record.js';
import { importUserName } from '../shared/user-name.js';

/** `port` monitors: a TCP check. */
export function mapPort(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  const port = num(monitor, 'port');
  if (port === undefined) return missing(monitor, 'port', 'port');
  // The tool also tests TLS on a port monitor in two cases (server/monitor-types/tcp.js): an
  // expected TLS alert, and a certificate that must be valid when TLS and expiry reminders are on.
  const alert = text(monitor, 'expected_tls_alert')?.trim();
  if (alert !== undefined && alert !== 'none') {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the expected TLS alert ${JSON.stringify(alert)} is not checked; the check only connects`,
      monitor.field('expected_tls_alert'),
    );
  }
  const security = text(monitor, 'smtp_security')?.trim();
  if ((security === 'secure' || security === 'starttls') && flag(monitor, 'expiry_notification') === true) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'the tool also failed the monitor on an invalid TLS certificate; the check only connects (add a tls check for the certificate)',
      monitor.field('smtp_security'),
    );
  }
  return { type: 'tcp', target: hostPort(host, port), config: {} };
}

/** `ping` monitors: an ICMP check. */
export function mapPing(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  return {
    type: 'icmp',
    target: host,
    config: {
      count: wholeNumber(monitor, scope, 'ping_count', 'ping count', [1, 10]),
      packetSize: wholeNumber(monitor, scope, 'packet_size', 'packet size', [1, 65_500]),
    },
  };
}

function resolverOf(monitor: MonitorRecord, scope: ItemScope): string | undefined {
  const servers = (text(monitor, 'dns_resolve_server') ?? '').split(/[\s,;]+/).filter((server) => server !== '');
  const [server] = servers;
  if (server === undefined) return undefined;
  const field = monitor.field('dns_resolve_server');
  if (servers.length > 1) {
    scope.warn('UNSUPPORTED_SETTING', `only the first resolver (${server}) is used; the others were left out`, field);
  }
  const port = num(monitor, 'port');
  const resolver = hostPort(server, port === undefined || port === 53 ? undefined : port);
  if (hostPortProblem(resolver, false)) {
    scope.warn('UNSUPPORTED_SETTING', `the resolver ${JSON.stringify(resolver)} is not a host[:port]; the system resolver is used`, field);
    return undefined;
  }
  return resolver;
}

// The tool's DNS conditions (server/monitor-types/dns.js, server/monitor-conditions/): a list of
// "record <operator> value" expressions joined left to right by and/or, evaluated on each
// answer's value; the monitor is up when one answer meets them. A DNS check's answerConditions
// do the same; nested groups have no equivalent.
const ANSWER_OPERATORS: Readonly<Record<string, string>> = {
  equals: 'equals',
  not_equals: 'not-equals',
  contains: 'contains',
  not_contains: 'not-contains',
  starts_with: 'starts-with',
  not_starts_with: 'not-starts-with',
  ends_with: 'ends-with',
  not_ends_with: 'not-ends-with',
};

const MAX_CONDITIONS = 50;

function answerConditions(monitor: MonitorRecord, scope: ItemScope): Record<string, string>[] | undefined {
  const parsed = json(monitor, 'conditions');
  if (parsed === undefined || (parsed.ok && Array.isArray(parsed.value) && parsed.value.length === 0)) return undefined;
  const field = monitor.field('conditions');
  const leftOut = (why: string) => {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the conditions were left out (${why}), so the check is up on any answer where the monitor also tested its conditions`,
      field,
    );
    return undefined;
  };
  if (!parsed.ok || !Array.isArray(parsed.value)) return leftOut('they are not a JSON list');
  const conditions: Record<string, string>[] = [];
  for (const condition of parsed.value) {
    if (!isRecord(condition)) return leftOut('an entry is not an object');
    if (condition.type === 'group') return leftOut('nested condition groups have no equivalent');
    if (condition.type !== 'expression') continue;
    const operator = typeof condition.operator === 'string' ? own(ANSWER_OPERATORS, condition.operator) : undefined;
    if (operator === undefined) return leftOut(`the operator ${JSON.stringify(condition.operator)} has no equivalent`);
    if (condition.variable !== 'record') return leftOut(`the variable ${JSON.stringify(condition.variable)} has no equivalent`);
    if (typeof condition.value !== 'string' || condition.value.length > 1024) return leftOut('a value is not a text of at most 1024 characters');
    conditions.push({ join: condition.andOr === 'or' ? 'or' : 'and', operator, value: condition.value });
  }
  if (conditions.length > MAX_CONDITIONS) return leftOut(`there are more than ${MAX_CONDITIONS}`);
  return conditions.length === 0 ? undefined : conditions;
}

/** `dns` monitors: a DNS check. */
export function mapDns(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  const type = text(monitor, 'dns_resolve_type')?.trim().toUpperCase();
  let recordType: string | undefined;
  if (type !== undefined && (DNS_RECORD_TYPES as readonly string[]).includes(type)) recordType = type;
  else if (type !== undefined) {
    const message = `the record type ${JSON.stringify(type)} has no equivalent; A is queried`;
    scope.warn('UNSUPPORTED_SETTING', message, monitor.field('dns_resolve_type'));
  }
  return {
    type: 'dns',
    target: host,
    // A query answered without records is down in the tool (the resolver's ENODATA is an error).
    config: { recordType, resolver: resolverOf(monitor, scope), answerConditions: answerConditions(monitor, scope), requireAnswers: true },
  };
}

const SMTP_SECURITY: Readonly<Record<string, string>> = {
  secure: 'tls',
  tls: 'tls',
  ssl: 'tls',
  starttls: 'starttls',
  nostarttls: 'none',
  none: 'none',
};

/** `smtp` monitors: an SMTP check. */
export function mapSmtp(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  const given = text(monitor, 'smtp_security')?.trim().toLowerCase();
  const security = given === undefined ? undefined : own(SMTP_SECURITY, given);
  if (given !== undefined && security === undefined) {
    const message = `the security mode ${JSON.stringify(given)} has no equivalent; none is used`;
    scope.warn('UNSUPPORTED_SETTING', message, monitor.field('smtp_security'));
  }
  // The tool's SMTP monitor (server/monitor-types/smtp.js) verifies certificates whatever its
  // "ignore TLS errors" says, and without a security mode upgrades with STARTTLS when offered.
  certificatesVerified(monitor, scope);
  if (given === undefined) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'without a security mode the tool used STARTTLS when the server offered it (failing on a bad certificate); the check speaks plain SMTP',
      monitor.field('smtp_security'),
    );
  }
  return {
    type: 'smtp',
    target: hostPort(host, num(monitor, 'port')),
    config: { security, ignoreTlsErrors: false },
  };
}

/** `snmp` monitors: an SNMP check; the community string is a secret. */
export function mapSnmp(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  const oid = text(monitor, 'snmp_oid')?.trim();
  if (oid === undefined) return missing(monitor, 'snmp_oid', 'OID');
  const version = text(monitor, 'snmp_version')?.trim();
  // The community string is kept in the RADIUS password column; without it the probe would
  // ask as "public", so the check refers to a secret to set instead.
  const community = version === '3' ? undefined : referSecret(monitor, scope, 'radius_password', 'COMMUNITY', 'the SNMP community string');
  const path = text(monitor, 'json_path')?.trim();
  if (path !== undefined && path !== '$') {
    scope.warn('UNSUPPORTED_SETTING', 'a JSON query on the SNMP value has no equivalent; the value itself is compared', monitor.field('json_path'));
  }
  const given = text(monitor, 'expected_value');
  const expected = given !== undefined && given.length > MAX_QUERY_TEXT ? undefined : given;
  if (given === undefined) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'the monitor has no expected value, so the tool failed every check; the check is up on any value',
      monitor.field('expected_value'),
    );
  } else if (expected === undefined) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the expected value is longer than ${MAX_QUERY_TEXT} characters and was left out; the check is up on any value`,
      monitor.field('expected_value'),
    );
  }
  const v3Username = version === '3' ? importUserName(text(monitor, 'snmp_v3_username'), scope, monitor.field('snmp_v3_username')) : undefined;
  return {
    type: 'snmp',
    target: hostPort(host, num(monitor, 'port')),
    config: {
      version,
      oid,
      v3Username,
      community,
      // The tool compares the value as its JSON query does (server/monitor-types/snmp.js calls
      // evaluateJsonQuery of src/util.ts): == and != as text, order only numbers.
      condition: expected === undefined ? undefined : { operator: operator(monitor, scope, 'json_path_operator'), expected, compareAs: 'text' },
    },
  };
}

/** `ntp` monitors: an NTP check with the tool's thresholds (2.5). */
export function mapNtp(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  return {
    type: 'ntp',
    target: hostPort(host, num(monitor, 'port')),
    config: {
      maxOffsetMs: wholeNumber(monitor, scope, 'ntp_time_offset_threshold', 'offset threshold (ms)', [1, 3_600_000]),
      maxStratum: wholeNumber(monitor, scope, 'ntp_stratum_threshold', 'stratum threshold', [1, 15]),
      maxRootDispersionMs: wholeNumber(monitor, scope, 'ntp_root_dispersion_threshold', 'root dispersion threshold (ms)', [1, 3_600_000]),
    },
  };
}
