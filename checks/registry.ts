import type { z } from 'zod';
import { browserCheck } from './types/browser.js';
import { dnsCheck } from './types/dns.js';
import { dockerCheck } from './types/docker.js';
import { domainCheck } from './types/domain.js';
import { grpcCheck } from './types/grpc.js';
import { heartbeatCheck } from './types/heartbeat.js';
import { httpCheck } from './types/http.js';
import { icmpCheck } from './types/icmp.js';
import { imapCheck } from './types/imap.js';
import { kafkaCheck } from './types/kafka.js';
import { mongodbCheck } from './types/mongodb.js';
import { mqttCheck } from './types/mqtt.js';
import { mssqlCheck } from './types/mssql.js';
import { mysqlCheck } from './types/mysql.js';
import { ntpCheck } from './types/ntp.js';
import { oracleCheck } from './types/oracle.js';
import { pop3Check } from './types/pop3.js';
import { postgresCheck } from './types/postgres.js';
import { rabbitmqCheck } from './types/rabbitmq.js';
import { redisCheck } from './types/redis.js';
import { smtpCheck } from './types/smtp.js';
import { snmpCheck } from './types/snmp.js';
import { sshCheck } from './types/ssh.js';
import { tcpCheck } from './types/tcp.js';
import { tlsCheck } from './types/tls.js';
import { udpCheck } from './types/udp.js';
import { websocketCheck } from './types/websocket.js';

/** Every check type, in the order the catalog lists them. */
export const checkTypes = [
  httpCheck,
  tcpCheck,
  udpCheck,
  icmpCheck,
  dnsCheck,
  tlsCheck,
  domainCheck,
  websocketCheck,
  grpcCheck,
  sshCheck,
  smtpCheck,
  pop3Check,
  imapCheck,
  heartbeatCheck,
  postgresCheck,
  mysqlCheck,
  mssqlCheck,
  oracleCheck,
  mongodbCheck,
  redisCheck,
  mqttCheck,
  kafkaCheck,
  rabbitmqCheck,
  dockerCheck,
  snmpCheck,
  ntpCheck,
  browserCheck,
] as const;

/** Any one of the declared check types. */
export type AnyCheckType = (typeof checkTypes)[number];

type CheckTypesByName = { [T in AnyCheckType as T['type']]: T };

/** The name of a declared check type: `'http' | 'tcp' | ...`. */
export type CheckTypeName = keyof CheckTypesByName;

/** The normalised `config` of a check of type `T` (defaults filled). */
export type CheckConfig<T extends CheckTypeName> = z.output<CheckTypesByName[T]['config']>;

/** The `config` of a check of type `T` as accepted on input (defaulted fields optional). */
export type CheckConfigInput<T extends CheckTypeName> = z.input<CheckTypesByName[T]['config']>;

const byName = new Map<string, AnyCheckType>(checkTypes.map((checkType) => [checkType.type, checkType]));

/** The names of all check types, in catalog order. */
export const checkTypeNames: readonly CheckTypeName[] = checkTypes.map((checkType) => checkType.type);

/** The declaration of `type`, or undefined when no such type exists. */
export function getCheckType(type: string): AnyCheckType | undefined {
  return byName.get(type);
}

/** Whether `type` names a declared check type. */
export function isCheckTypeName(type: string): type is CheckTypeName {
  return byName.has(type);
}
