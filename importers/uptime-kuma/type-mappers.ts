import { mapDatabase } from './map-database.js';
import { mapDocker, mapPush } from './map-host.js';
import { mapBrowser, mapHttp } from './map-http.js';
import { mapWebsocket } from './map-websocket.js';
import { mapGrpc, mapKafka, mapMqtt, mapRabbitmq } from './map-messaging.js';
import { mapDns, mapNtp, mapPing, mapPort, mapSmtp, mapSnmp } from './map-network.js';
import type { TypeMapper } from './mapping.js';

/** The monitor types that have an equivalent check type, and how each converts. */
export const TYPE_MAPPERS: Readonly<Record<string, TypeMapper>> = {
  http: mapHttp,
  keyword: mapHttp,
  'json-query': mapHttp,
  'real-browser': mapBrowser,
  'websocket-upgrade': mapWebsocket,
  port: mapPort,
  ping: mapPing,
  dns: mapDns,
  smtp: mapSmtp,
  snmp: mapSnmp,
  ntp: mapNtp,
  mqtt: mapMqtt,
  'kafka-producer': mapKafka,
  rabbitmq: mapRabbitmq,
  'grpc-keyword': mapGrpc,
  docker: mapDocker,
  push: mapPush,
  sqlserver: mapDatabase,
  postgres: mapDatabase,
  mysql: mapDatabase,
  mongodb: mapDatabase,
  oracledb: mapDatabase,
  redis: mapDatabase,
};

/** Monitor types without an equivalent check type, and what each one does (for the warning). */
export const UNSUPPORTED_TYPES: Readonly<Record<string, string>> = {
  radius: 'RADIUS authentication',
  steam: 'Steam game servers',
  gamedig: 'game servers (GameDig)',
  'tailscale-ping': 'pings over Tailscale',
  'system-service': 'system services of the monitor host',
  'sip-options': 'SIP OPTIONS requests',
  globalping: 'probes from the Globalping network',
  manual: 'statuses set by hand',
};

/** The monitor type that only groups others; it becomes the `group` label of its children. */
export const GROUP_TYPE = 'group';
