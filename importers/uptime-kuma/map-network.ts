import { DNS_RECORD_TYPES } from '../../checks/index.js';
import { hostPortProblem } from '../../checks/hosts.js';
import { isRecord, type ItemScope } from '../converter.js';
import { dropSecret, hostOf, hostPort, missing, operator, own, wholeNumber, type SkipItem, type TypeMapping } from './mapping.js';
import { flag, json, num, text, type MonitorRecord } from './monitor-record.js';

/** `port` monitors: a TCP check. */
export function mapPort(monitor: MonitorRecord): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  const port = num(monitor, 'port');
  if (port === undefined) return missing(monitor, 'port', 'port');
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

// Conditions are a list of expressions and groups; only "record contains/equals X" joined by
// "and" has an equivalent (the expected answers of a DNS check).
function expectedAnswers(monitor: MonitorRecord, scope: ItemScope): string[] | undefined {
  const parsed = json(monitor, 'conditions');
  if (parsed === undefined || (parsed.ok && Array.isArray(parsed.value) && parsed.value.length === 0)) return undefined;
  const field = monitor.field('conditions');
  const values: string[] = [];
  const usable =
    parsed.ok &&
    Array.isArray(parsed.value) &&
    parsed.value.every((condition, i) => {
      if (!isRecord(condition) || condition.type !== 'expression' || condition.variable !== 'record') return false;
      if (condition.operator !== 'contains' && condition.operator !== 'equals') return false;
      if (i > 0 && condition.andOr !== undefined && condition.andOr !== 'and') return false;
      if (typeof condition.value !== 'string' || condition.value === '' || condition.value.length > 1024) return false;
      values.push(condition.value);
      return true;
    });
  if (!usable || values.length > 50) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'the conditions have no equivalent (only "record contains/equals" joined by "and" do) and were left out',
      field,
    );
    return undefined;
  }
  return values;
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
    config: { recordType, resolver: resolverOf(monitor, scope), expectedValues: expectedAnswers(monitor, scope) },
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
  return {
    type: 'smtp',
    target: hostPort(host, num(monitor, 'port')),
    config: { security, ignoreTlsErrors: flag(monitor, 'ignore_tls') },
  };
}

/** `snmp` monitors: an SNMP check; the community string is a secret. */
export function mapSnmp(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'host name');
  const oid = text(monitor, 'snmp_oid')?.trim();
  if (oid === undefined) return missing(monitor, 'snmp_oid', 'OID');
  const version = text(monitor, 'snmp_version')?.trim();
  dropSecret(monitor, scope, 'radius_password', 'the SNMP community string');
  const path = text(monitor, 'json_path')?.trim();
  if (path !== undefined && path !== '$') {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'a JSON query on the SNMP value has no equivalent; the value itself is compared',
      monitor.field('json_path'),
    );
  }
  const expected = text(monitor, 'expected_value');
  const v3Username = version === '3' ? text(monitor, 'snmp_v3_username') : undefined;
  return {
    type: 'snmp',
    target: hostPort(host, num(monitor, 'port')),
    config: {
      version,
      oid,
      v3Username,
      condition:
        expected === undefined ? undefined : { operator: operator(monitor, scope, 'json_path_operator'), expected },
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
