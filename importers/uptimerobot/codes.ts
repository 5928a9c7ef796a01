// The numeric codes of the v2 API (getMonitors) and the strings of v3, as the tool documents them.

/** v2 `type`: 1 HTTP(s), 2 keyword, 3 ping, 4 port, 5 heartbeat. */
export const V2_TYPES: Readonly<Record<number, MonitorKind>> = { 1: 'http', 2: 'keyword', 3: 'ping', 4: 'port', 5: 'heartbeat' };

/** The kinds of monitor both API versions share, plus the v3-only ones this importer maps. */
export type MonitorKind = 'http' | 'keyword' | 'ping' | 'port' | 'heartbeat' | 'dns' | 'api' | 'udp';

/** v3 `type` strings (any case) for the kinds above. */
export const V3_TYPES: Readonly<Record<string, MonitorKind>> = {
  HTTP: 'http',
  HTTPS: 'http',
  KEYWORD: 'keyword',
  PING: 'ping',
  PORT: 'port',
  HEARTBEAT: 'heartbeat',
  DNS: 'dns',
  API: 'api',
  UDP: 'udp',
};

/** A service a port monitor watches: the check type and the port it implies. */
export interface PortService {
  name: string;
  type: 'tcp' | 'smtp' | 'pop3' | 'imap';
  port?: number;
}

/** v2 `sub_type` of port monitors; 99 is a custom port given in `port`. */
export const V2_PORT_SERVICES: Readonly<Record<number, PortService>> = {
  1: { name: 'HTTP', type: 'tcp', port: 80 },
  2: { name: 'HTTPS', type: 'tcp', port: 443 },
  3: { name: 'FTP', type: 'tcp', port: 21 },
  4: { name: 'SMTP', type: 'smtp', port: 25 },
  5: { name: 'POP3', type: 'pop3', port: 110 },
  6: { name: 'IMAP', type: 'imap', port: 143 },
  99: { name: 'custom', type: 'tcp' },
};

/** v2 `http_method`: 1 HEAD, 2 GET, 3 POST, 4 PUT, 5 PATCH, 6 DELETE, 7 OPTIONS. */
export const V2_HTTP_METHODS: Readonly<Record<number, string>> = {
  1: 'HEAD',
  2: 'GET',
  3: 'POST',
  4: 'PUT',
  5: 'PATCH',
  6: 'DELETE',
  7: 'OPTIONS',
};

/** v2 `status` 0: paused. (1 not checked yet, 2 up, 8 seems down, 9 down are states, not settings.) */
export const V2_PAUSED = 0;
