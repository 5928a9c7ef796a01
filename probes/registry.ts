import type { CheckTypeName } from '../checks/index.js';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CHROMIUM_PATH } from './chromium-path.js';
import { ProbeFailure, type Probe } from './probe.js';

/**
 * Each type's probe, loaded on first use so that a daemon that never runs a type never loads its
 * driver. Adding a type is its file under probes/types/ plus one line here.
 */
const LOADERS: Partial<Record<CheckTypeName, () => Promise<Probe<any>>>> = {
  http: () => import('./types/http.js').then((module) => module.httpProbe),
  tcp: () => import('./types/tcp.js').then((module) => module.tcpProbe),
  udp: () => import('./types/udp.js').then((module) => module.udpProbe),
  dns: () => import('./types/dns.js').then((module) => module.dnsProbe),
  icmp: () => import('./types/icmp.js').then((module) => module.icmpProbe),
  tls: () => import('./types/tls.js').then((module) => module.tlsProbe),
  websocket: () => import('./types/websocket.js').then((module) => module.websocketProbe),
  postgres: () => import('./types/postgres.js').then((module) => module.postgresProbe),
  mysql: () => import('./types/mysql.js').then((module) => module.mysqlProbe),
  redis: () => import('./types/redis.js').then((module) => module.redisProbe),
  mqtt: () => import('./types/mqtt.js').then((module) => module.mqttProbe),
  rabbitmq: () => import('./types/rabbitmq.js').then((module) => module.rabbitmqProbe),
  mongodb: () => import('./types/mongodb.js').then((module) => module.mongodbProbe),
  kafka: () => import('./types/kafka.js').then((module) => module.kafkaProbe),
  mssql: () => import('./types/mssql.js').then((module) => module.mssqlProbe),
  oracle: () => import('./types/oracle.js').then((module) => module.oracleProbe),
  ssh: () => import('./types/ssh.js').then((module) => module.sshProbe),
  smtp: () => import('./types/smtp.js').then((module) => module.smtpProbe),
  imap: () => import('./types/imap.js').then((module) => module.imapProbe),
  pop3: () => import('./types/pop3.js').then((module) => module.pop3Probe),
  ntp: () => import('./types/ntp.js').then((module) => module.ntpProbe),
  snmp: () => import('./types/snmp.js').then((module) => module.snmpProbe),
  grpc: () => import('./types/grpc.js').then((module) => module.grpcProbe),
  domain: () => import('./types/domain.js').then((module) => module.domainProbe),
  docker: () => import('./types/docker.js').then((module) => module.dockerProbe),
  browser: () => import('./types/browser.js').then((module) => module.browserProbe),
};

/**
 * Programs of the host a type runs, beyond its npm driver: checked by path, without loading the
 * probe, so `GET /check-types` can say what this daemon runs without loading every driver.
 */
const HOST_PROGRAMS: Partial<Record<CheckTypeName, { find(): boolean; missing: string }>> = {
  browser: { find: () => existsSync(CHROMIUM_PATH), missing: `Chromium is not installed (${CHROMIUM_PATH}; Debian: apt-get install chromium)` },
  icmp: { find: () => onPath('ping'), missing: "the ping program is not installed (Debian's iputils-ping)" },
};

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, program)));
}

const loaded = new Map<CheckTypeName, Promise<Probe>>();

/** Why this daemon cannot run a type, or undefined when it can. Cheap: loads no driver. */
export function unavailableReason(type: CheckTypeName): string | undefined {
  if (type === 'heartbeat') return undefined;
  if (!LOADERS[type]) return 'no executor for this type';
  const host = HOST_PROGRAMS[type];
  return host && !host.find() ? host.missing : undefined;
}

/** The probe of a type, loaded once; a type this daemon cannot run fails with the reason. */
export function loadProbe(type: CheckTypeName): Promise<Probe> {
  const reason = unavailableReason(type);
  if (reason) return Promise.reject(new ProbeFailure(`cannot run ${type} checks here: ${reason}`));
  let probe = loaded.get(type);
  if (!probe) {
    probe = LOADERS[type]!();
    loaded.set(type, probe);
  }
  return probe;
}

/** Whether this daemon can run a type, and if not, why (for `GET /check-types`). */
export function probeAvailability(type: CheckTypeName): { runnable: boolean; reason?: string } {
  const reason = unavailableReason(type);
  return reason ? { runnable: false, reason } : { runnable: true };
}
