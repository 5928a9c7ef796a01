import { importHeaders, isRecord, isSecretHeader, type ItemScope } from '../converter.js';
import {
  MAX_QUERY_TEXT,
  certificatesVerified,
  hostOf,
  hostPort,
  keyword,
  missing,
  referSecret,
  unsupported,
  type SkipItem,
  type TypeMapping,
} from './mapping.js';
import { flag, json, num, text, type MonitorRecord } from './monitor-record.js';
import { withDefaultPort } from '../shared/host-port.js';
import { importKeywordText } from '../shared/http-request.js';
import { importBoundedText } from '../shared/bounded-text.js';
import { importUserName } from '../shared/user-name.js';

const MQTT_SCHEME = /^(mqtts?|wss?|tcp|ssl|tls):\/\//i;

/** `mqtt` monitors: an MQTT check. The host name may carry a scheme (mqtt://, mqtts://, ws://, wss://). */
export function mapMqtt(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  let host = hostOf(monitor);
  if (host === undefined) return missing(monitor, 'hostname', 'broker host name');
  const scheme = MQTT_SCHEME.exec(host)?.[1]?.toLowerCase();
  if (scheme !== undefined) host = host.slice(scheme.length + 3).replace(/\/.*$/, '');
  const useTls = scheme === 'mqtts' || scheme === 'wss' || scheme === 'ssl' || scheme === 'tls';
  const websocket = scheme === 'ws' || scheme === 'wss';
  const topic = text(monitor, 'mqtt_topic');
  if (topic === undefined) return missing(monitor, 'mqtt_topic', 'topic');
  const config: Record<string, unknown> = { topic, username: importUserName(text(monitor, 'mqtt_username'), scope, monitor.field('mqtt_username')), useTls };
  // The tool puts a "/" before a path written without one (server/monitor-types/mqtt.js, mqttAsync).
  if (websocket) config.websocketPath = (text(monitor, 'mqtt_websocket_path')?.trim() ?? '/mqtt').replace(/^(?!\/)/, '/');
  config.password = referSecret(monitor, scope, 'mqtt_password', 'PASSWORD', 'the MQTT password');
  const checkType = text(monitor, 'mqtt_check_type')?.trim() ?? 'keyword';
  if (checkType === 'keyword') {
    config.keyword = keyword(importKeywordText(text(monitor, 'mqtt_success_message'), scope, monitor.field('mqtt_success_message')), false);
  } else if (checkType === 'json-query') {
    const expression = text(monitor, 'json_path');
    const expected = text(monitor, 'expected_value');
    if ((expression?.length ?? 0) > MAX_QUERY_TEXT || (expected?.length ?? 0) > MAX_QUERY_TEXT) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        `the JSON query or its expected value is longer than ${MAX_QUERY_TEXT} characters and was left out`,
        monitor.field('json_path'),
      );
    } else if (expression !== undefined && expected !== undefined) {
      // The tool compares the result's text with the expected value and ignores the operator
      // (server/monitor-types/mqtt.js checkJsonQuery).
      const given = text(monitor, 'json_path_operator')?.trim();
      if (given !== undefined && given !== '==') {
        const message = `the operator ${JSON.stringify(given)} was ignored by the tool, which compares with ==; so does the check`;
        scope.warn('VALUE_ADJUSTED', message, monitor.field('json_path_operator'));
      }
      config.jsonQueries = [{ expression, operator: '==', expected, compareAs: 'text' }];
    } else {
      scope.warn('UNSUPPORTED_SETTING', 'the JSON query is incomplete and was left out', monitor.field('json_path'));
    }
  } else {
    const message = `the message check ${JSON.stringify(checkType)} has no equivalent; any message succeeds`;
    scope.warn('UNSUPPORTED_SETTING', message, monitor.field('mqtt_check_type'));
  }
  const conditions = json(monitor, 'conditions');
  if (conditions !== undefined && !(conditions.ok && Array.isArray(conditions.value) && conditions.value.length === 0)) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'the conditions on the message, which the tool tested instead of the keyword or JSON query, have no equivalent and were left out',
      monitor.field('conditions'),
    );
  }
  return { type: 'mqtt', target: hostPort(host, num(monitor, 'port')), config };
}

function stringList(monitor: MonitorRecord, scope: ItemScope, column: string, what: string): string[] {
  const parsed = json(monitor, column);
  if (parsed === undefined) return [];
  if (!parsed.ok || !Array.isArray(parsed.value)) {
    scope.warn('UNSUPPORTED_SETTING', `the ${what} are not a JSON list and were left out`, monitor.field(column));
    return [];
  }
  return parsed.value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '').map((entry) => entry.trim());
}

const SASL_MECHANISMS = new Set(['plain', 'scram-sha-256', 'scram-sha-512', 'aws']);
const SASL_SECRETS = ['password', 'secretAccessKey', 'sessionToken'] as const;

function saslOf(monitor: MonitorRecord, scope: ItemScope): Record<string, unknown> | undefined {
  const parsed = json(monitor, 'kafka_producer_sasl_options');
  const field = monitor.field('kafka_producer_sasl_options');
  if (parsed === undefined) return undefined;
  if (!parsed.ok || !isRecord(parsed.value)) {
    scope.warn('UNSUPPORTED_SETTING', 'the SASL options are not a JSON object and were left out', field);
    return undefined;
  }
  const options = parsed.value;
  const mechanism = typeof options.mechanism === 'string' ? options.mechanism.toLowerCase() : 'none';
  const isSet = (secret: string) => typeof options[secret] === 'string' && options[secret] !== '';
  // The password of a usable mechanism becomes a reference; AWS keys have no field in a check.
  const referPassword = mechanism !== 'aws' && SASL_MECHANISMS.has(mechanism) && isSet('password');
  for (const secret of SASL_SECRETS) {
    if (isSet(secret) && !(secret === 'password' && referPassword)) {
      scope.warn('SECRET_DROPPED', `the SASL ${secret} was not imported (secrets never carry over; this check has no field for it)`, `${field}.${secret}`);
    }
  }
  if (mechanism === 'none') return undefined;
  if (!SASL_MECHANISMS.has(mechanism)) {
    scope.warn('UNSUPPORTED_SETTING', `the SASL mechanism ${JSON.stringify(options.mechanism)} has no equivalent`, field);
    return undefined;
  }
  const user = mechanism === 'aws' ? options.accessKeyId : options.username;
  const password = referPassword ? scope.secretFor('SASL_PASSWORD', 'the SASL password', `${field}.password`) : undefined;
  return {
    mechanism,
    username: importUserName(typeof user === 'string' ? user : undefined, scope, `${field}.${mechanism === 'aws' ? 'accessKeyId' : 'username'}`),
    password,
  };
}

/** `kafka-producer` monitors: a Kafka check; the first broker is the target. */
export function mapKafka(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const [first, ...others] = stringList(monitor, scope, 'kafka_producer_brokers', 'brokers');
  if (first === undefined) return missing(monitor, 'kafka_producer_brokers', 'broker');
  const topic = text(monitor, 'kafka_producer_topic');
  if (topic === undefined) return missing(monitor, 'kafka_producer_topic', 'topic');
  if (others.length > 20) {
    scope.warn('VALUE_ADJUSTED', `only 20 more brokers were kept (of ${others.length})`, monitor.field('kafka_producer_brokers'));
  }
  return {
    type: 'kafka',
    target: first,
    config: {
      topic,
      message: importBoundedText(text(monitor, 'kafka_producer_message'), scope, monitor.field('kafka_producer_message'), 'message'),
      additionalBrokers: others.slice(0, 20),
      useTls: flag(monitor, 'kafka_producer_ssl'),
      sasl: saslOf(monitor, scope),
      allowAutoTopicCreation: flag(monitor, 'kafka_producer_allow_auto_topic_creation'),
    },
  };
}

/** `rabbitmq` monitors: a RabbitMQ check; the first management URL is the target. */
export function mapRabbitmq(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const [first, ...others] = stringList(monitor, scope, 'rabbitmq_nodes', 'nodes');
  if (first === undefined) return missing(monitor, 'rabbitmq_nodes', 'management URL');
  const password = referSecret(monitor, scope, 'rabbitmq_password', 'PASSWORD', 'the RabbitMQ password');
  if (others.length > 20) {
    scope.warn('VALUE_ADJUSTED', `only 20 more nodes were kept (of ${others.length})`, monitor.field('rabbitmq_nodes'));
  }
  return {
    type: 'rabbitmq',
    target: first,
    config: {
      additionalNodes: others.slice(0, 20),
      username: importUserName(text(monitor, 'rabbitmq_username'), scope, monitor.field('rabbitmq_username')),
      password,
    },
  };
}

const METADATA_KEY = /^(?!.*-bin$)[0-9a-z_.-]{1,256}$/;

function metadataOf(monitor: MonitorRecord, scope: ItemScope): Record<string, string> | undefined {
  const parsed = json(monitor, 'grpc_metadata');
  if (parsed === undefined) return undefined;
  if (!parsed.ok || !isRecord(parsed.value)) {
    scope.warn('UNSUPPORTED_SETTING', 'the metadata is not a JSON object and was left out', monitor.field('grpc_metadata'));
    return undefined;
  }
  const field = monitor.field('grpc_metadata');
  const entries = Object.entries(parsed.value)
    .map(([key, value]) => [key.trim().toLowerCase(), value] as const)
    .filter(([key]) => {
      if (METADATA_KEY.test(key)) return true;
      if (isSecretHeader(key)) {
        // No secret can stand in for it under a key the check cannot send.
        scope.warn(
          'SECRET_DROPPED',
          `the credential in the metadata ${JSON.stringify(key)} was not imported: the key is not usable (binary "-bin" keys included)`,
          `${field}.${key}`,
        );
        return false;
      }
      const message = `${JSON.stringify(key)} is not a usable metadata key (binary "-bin" keys included); it was left out`;
      scope.warn('UNSUPPORTED_SETTING', message, `${field}.${key}`);
      return false;
    });
  return importHeaders(entries, scope, field);
}

/**
 * Whether the monitor calls the standard health method. Kuma calls `grpc_method` (camelCase, as its
 * form asks: `check`) of the protobuf service `grpc_service_name` (`Health`, or its full name),
 * server/monitor-types/grpc.js constructGrpcService.
 */
function callsHealthCheck(protoService: string | undefined, method: string | undefined): boolean {
  if (method === undefined || !/^[Cc]heck$/.test(method)) return false;
  return protoService === undefined || protoService === '' || /^(grpc\.health\.v1\.)?Health$/.test(protoService);
}

/** The health service a health call asks for: the `service` of its JSON request body ('' for the whole server). */
function requestedService(body: string | undefined): { service: string; other: boolean } {
  if (body === undefined) return { service: '', other: false };
  try {
    const parsed: unknown = JSON.parse(body);
    if (!isRecord(parsed)) return { service: '', other: true };
    const { service, ...rest } = parsed;
    return {
      service: typeof service === 'string' ? service : '',
      other: Object.keys(rest).length > 0 || (service !== undefined && typeof service !== 'string'),
    };
  } catch {
    return { service: '', other: true };
  }
}

/** `grpc-keyword` monitors: a gRPC health check, with the keyword looked for in its answer. */
export function mapGrpc(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  let target = text(monitor, 'grpc_url')?.trim();
  if (target === undefined) return missing(monitor, 'grpc_url', 'gRPC server address');
  const scheme = /^(https?|grpcs?):\/\//i.exec(target)?.[1]?.toLowerCase();
  if (scheme !== undefined) target = target.slice(scheme.length + 3).replace(/\/.*$/, '');
  // The tool hands the address to grpc-js, which dials port 443 when it names none (resolver-dns.ts DEFAULT_PORT).
  target = withDefaultPort(target, 443) ?? target;
  const method = text(monitor, 'grpc_method')?.trim();
  const protoService = text(monitor, 'grpc_service_name')?.trim();
  const body = text(monitor, 'grpc_body');
  const called = method === undefined ? undefined : [protoService, method].filter(Boolean).join('/');
  // The monitor may already call the health service itself: then its body names the service asked about.
  const callsHealth = callsHealthCheck(protoService, method);
  const request = callsHealth ? requestedService(body) : { service: '', other: false };
  const custom = !callsHealth && (text(monitor, 'grpc_protobuf') !== undefined || body !== undefined);
  if ((called !== undefined && !callsHealth) || custom || request.other) {
    const instead = callsHealth ? '' : ` instead of ${called ?? 'a custom method'}`;
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the check calls the standard health service (grpc.health.v1.Health/Check)${instead}` +
        (custom ? '; the protobuf definition and request body were left out' : '') +
        (request.other ? '; only the service of the request body was kept' : ''),
      monitor.field(method !== undefined && !callsHealth ? 'grpc_method' : request.other ? 'grpc_body' : 'grpc_protobuf'),
    );
  }
  const value = importKeywordText(text(monitor, 'keyword'), scope, monitor.field('keyword'));
  const inverted = flag(monitor, 'invert_keyword') ?? false;
  // Kuma searched the decoded answer as JSON ({"status":"NOT_SERVING"}; {} for UNKNOWN, proto3's
  // default) and was up whenever the keyword was there (or, inverted, was not), whatever the status:
  // no keyword gives the same verdicts as the check on every answer.
  if (callsHealth && value !== undefined) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      'the tool looked for the keyword in the answer as JSON (such as {"status":"NOT_SERVING"}, or {} for UNKNOWN), whatever the status; ' +
        'the check is down unless the server is SERVING, and looks for the keyword in the status name',
      monitor.field('keyword'),
    );
  }
  unsupported(monitor, scope, 'proxy_id', 'requests through a proxy have no equivalent; the check connects directly');
  return {
    type: 'grpc',
    target,
    config: {
      service: callsHealth ? request.service || undefined : undefined,
      useTls: flag(monitor, 'grpc_enable_tls') === true || scheme === 'https' || scheme === 'grpcs',
      // grpc-js's createSsl() without arguments (server/monitor-types/grpc.js) verifies the certificate.
      ignoreTlsErrors: certificatesVerified(monitor, scope),
      metadata: metadataOf(monitor, scope),
      keyword: keyword(value, inverted),
    },
  };
}
