import { HEALTH_PROTO } from './grpc-target.js';
import { BASIC_PASSWORD, BASIC_USER, BEARER_TOKEN, type Targets } from './targets.js';

// The monitors of the differential run: every Uptime Kuma type that runs on this machine, each
// against a local target with a known behaviour, most of them both ways up (an upside-down twin
// is added for each). Fields are those of src/pages/EditMonitor.vue.

export interface ParityCase {
  /** The monitor's name in Kuma; unique. The imported check keeps it. */
  name: string;
  /** Fields over EditMonitor.vue's defaults. */
  monitor: Record<string, unknown>;
  /** The value every secret the imported check refers to is given (as its warning asks). */
  secret?: string;
  /** Push monitors: what the run sends to the push URL (nothing when absent). */
  push?: 'up' | 'down';
  /** The name of the group case this monitor belongs to. */
  group?: string;
  /** Not added to Kuma at all, with the reason (shown in the table). */
  notRun?: string;
  /** No upside-down twin. */
  single?: boolean;
  /** Docker monitors: the run's podman engine is added to Kuma as a Docker host, and the monitor uses it. */
  dockerHost?: boolean;
}

export const MQTT_RETAINED: Record<string, string> = {
  'parity/status': 'online',
  'parity/json': '{"state":"on","load":0.25}',
};

const PUSH_TOKEN_LENGTH = 32;
const pushToken = (n: number) => `paritypush${String(n).padStart(PUSH_TOKEN_LENGTH - 10, '0')}`;

/** Every case against the targets' ports. */
export function parityCases(t: Targets): ParityCase[] {
  const web = `http://127.0.0.1:${t.http}`;
  const tls = `https://127.0.0.1:${t.https}`;
  const http = (name: string, path: string, extra: Record<string, unknown> = {}, more: Partial<ParityCase> = {}): ParityCase => ({
    name: `http ${name}`,
    monitor: { type: 'http', url: path.startsWith('http') ? path : `${web}${path}`, ...extra },
    ...more,
  });
  const keyword = (name: string, path: string, word: string, extra: Record<string, unknown> = {}): ParityCase => ({
    name: `keyword ${name}`,
    monitor: { type: 'keyword', url: `${web}${path}`, keyword: word, ...extra },
  });
  const jsonQuery = (name: string, path: string, jsonPath: string, jsonPathOperator: string, expectedValue: string): ParityCase => ({
    name: `json-query ${name}`,
    monitor: { type: 'json-query', url: `${web}${path}`, jsonPath, jsonPathOperator, expectedValue },
  });
  const dns = (name: string, hostname: string, type: string, extra: Record<string, unknown> = {}): ParityCase => ({
    name: `dns ${name}`,
    monitor: { type: 'dns', hostname, dns_resolve_type: type, dns_resolve_server: '127.0.0.1', port: t.dns, ...extra },
  });
  const condition = (operator: string, value: string) => [{ type: 'expression', variable: 'record', operator, value, andOr: 'and' }];
  const ws = (name: string, path: string, codes: string[], port = t.ws): ParityCase => ({
    name: `websocket ${name}`,
    monitor: { type: 'websocket-upgrade', url: `ws://127.0.0.1:${port}${path}`, accepted_statuscodes: codes },
  });
  const database = (type: string, name: string, connection: string, query?: string): ParityCase => ({
    name: `${type} ${name}`,
    monitor: { type, databaseConnectionString: connection, ...(query !== undefined ? { databaseQuery: query } : {}) },
  });
  const mqtt = (name: string, extra: Record<string, unknown>): ParityCase => ({
    name: `mqtt ${name}`,
    monitor: { type: 'mqtt', hostname: '127.0.0.1', port: 1883, mqttTopic: 'parity/status', ...extra },
  });

  return [
    // HTTP(S): statuses, redirects, encodings, timeouts, authentication, methods and bodies, TLS.
    http('ok', '/ok'),
    http('404', '/status/404'),
    http('500', '/status/500'),
    http('204', '/status/204'),
    http('404 accepted', '/status/404', { accepted_statuscodes: ['400-499'] }),
    http('418 accepted alone', '/status/418', { accepted_statuscodes: ['418'] }),
    http('301 redirect followed', '/redirect-chain'),
    http('302 not followed', '/redirect', { maxredirects: 0 }),
    http('302 not followed accepted', '/redirect', { maxredirects: 0, accepted_statuscodes: ['300-399'] }),
    http('redirect over the limit', '/redirect-chain', { maxredirects: 1 }),
    http('redirect loop', '/redirect-loop'),
    http('gzip', '/gzip'),
    http('empty body', '/empty'),
    http('slow within timeout', '/slow', { timeout: 12 }),
    http('slow past timeout', '/slow', { timeout: 2 }),
    http('closed port', `http://127.0.0.1:${t.tcpClosed}/`),
    http('localhost name', `http://localhost:${t.http}/ok`),
    http('basic auth', '/basic', { authMethod: 'basic', basic_auth_user: BASIC_USER, basic_auth_pass: BASIC_PASSWORD }, { secret: BASIC_PASSWORD }),
    http('basic auth wrong password', '/basic', { authMethod: 'basic', basic_auth_user: BASIC_USER, basic_auth_pass: 'wrong' }, { secret: 'wrong' }),
    http('basic auth missing', '/basic'),
    http('bearer header', '/bearer', { headers: JSON.stringify({ Authorization: `Bearer ${BEARER_TOKEN}` }) }, { secret: BEARER_TOKEN }),
    http('custom header', '/header', { headers: JSON.stringify({ 'X-Parity': 'yes' }) }),
    http('custom header missing', '/header'),
    http('POST', '/post-only', { method: 'POST' }),
    http('GET where POST is needed', '/post-only'),
    http('HEAD', '/head-only', { method: 'HEAD' }),
    http('JSON body', '/json-body', { method: 'POST', body: JSON.stringify({ a: 1 }, null, 4) }),
    http('form body', '/echo-body', { method: 'POST', body: 'a=1&b=2', httpBodyEncoding: 'form' }),
    http('retries on 500', '/status/500', { maxretries: 1 }),
    http('body on GET', '/echo-body', { body: JSON.stringify({ a: 1 }, null, 4) }),
    http('codes 200 and 404', '/status/404', { accepted_statuscodes: ['200-299', '404'] }),
    http('3xx accepted, followed', '/redirect', { accepted_statuscodes: ['300-399'] }),
    http('TLS self-signed', `${tls}/ok`),
    http('TLS self-signed ignored', `${tls}/ok`, { ignoreTls: true }),
    http('TLS ignored with expiry reminders', `${tls}/ok`, { ignoreTls: true, expiryNotification: true }),
    http('TLS self-signed with expiry reminders', `${tls}/ok`, { expiryNotification: true }),
    http('mTLS with client certificate', `https://127.0.0.1:${t.mtls}/ok`, {
      ignoreTls: true,
      authMethod: 'mtls',
      tlsCert: t.client.cert,
      tlsKey: t.client.key,
      tlsCa: '',
    }),
    http('mTLS without client certificate', `https://127.0.0.1:${t.mtls}/ok`, { ignoreTls: true }),

    // Keyword: case, inversion, JSON bodies (searched re-serialised), HTML, gzip, Unicode.
    keyword('present', '/ok', 'all systems go'),
    keyword('wrong case', '/ok', 'ALL SYSTEMS GO'),
    keyword('absent', '/ok', 'maintenance'),
    keyword('inverted, present', '/ok', 'all systems go', { invertKeyword: true }),
    keyword('inverted, absent', '/ok', 'maintenance', { invertKeyword: true }),
    keyword('JSON compact', '/json', '"status":"ok"'),
    keyword('JSON as sent', '/json', '"status": "ok"'),
    keyword('JSON text value', '/json', 'Hello World'),
    keyword('JSON string body quoted', '/json-string', '"up"'),
    keyword('JSON string body', '/json-string', 'up'),
    keyword('JSON number body', '/json-number', '42'),
    keyword('HTML', '/html', 'operational'),
    keyword('HTML markup', '/html', '<b>operational</b>'),
    keyword('on a 404', '/status/404', 'not found'),
    keyword('gzip', '/gzip', 'compressed keyword'),
    keyword('Unicode', '/unicode', 'Grüße'),
    keyword('with 404 accepted', '/status/404', 'status 404', { accepted_statuscodes: ['404'] }),
    keyword('inverted on a 404', '/status/404', 'maintenance', { invertKeyword: true }),
    keyword('JSON array body', '/json-array', '[1,2,3]'),
    keyword('JSON array as sent', '/json-array', '[1, 2, 3]'),
    keyword('JSON null value', '/json', '"nothing":null'),
    keyword('HEAD request', '/head-only', 'anything', { method: 'HEAD' }),

    // JSON query: text comparison, numbers, non-scalars, JSONata, a non-JSON body.
    jsonQuery('string equal', '/json', 'status', '==', 'ok'),
    jsonQuery('string differs', '/json', 'status', '==', 'bad'),
    jsonQuery('number above', '/json', 'count', '>', '2'),
    jsonQuery('number below', '/json', 'count', '<', '2'),
    jsonQuery('number at least', '/json', 'count', '>=', '3'),
    jsonQuery('number not equal', '/json', 'count', '!=', '3'),
    jsonQuery('version text', '/json', 'version', '==', '2.10'),
    jsonQuery('version as number', '/json', 'version', '==', '2.1'),
    jsonQuery('fraction', '/json', 'ratio', '==', '0.5'),
    jsonQuery('fraction written long', '/json', 'ratio', '==', '0.50'),
    jsonQuery('boolean', '/json', 'flag', '==', 'true'),
    jsonQuery('null', '/json', 'nothing', '==', 'null'),
    jsonQuery('array', '/json', 'items', '==', '[1,2]'),
    jsonQuery('nested', '/json', 'nested.name', '==', 'svc'),
    jsonQuery('contains', '/json', 'text', 'contains', 'World'),
    jsonQuery('JSONata count', '/json', '$count(items)', '==', '2'),
    jsonQuery('missing path', '/json', 'missing', '==', 'x'),
    jsonQuery('array body', '/json-array', '$[0]', '==', '1'),
    jsonQuery('text body', '/text', '$', 'contains', 'up'),
    jsonQuery('on a 500', '/status/500', 'status', '==', 'ok'),
    jsonQuery('whole number written as fraction', '/json', 'count', '==', '3.0'),
    jsonQuery('text ordered', '/json', 'status', '>', 'a'),
    jsonQuery('boolean other case', '/json', 'flag', '==', 'True'),
    jsonQuery('number contains', '/json', 'count', 'contains', '3'),
    jsonQuery('empty body', '/empty', '$', '==', ''),
    jsonQuery('object', '/json', 'nested', 'contains', 'svc'),

    // TCP ports.
    { name: 'port open', monitor: { type: 'port', hostname: '127.0.0.1', port: t.tcpOpen } },
    { name: 'port closed', monitor: { type: 'port', hostname: '127.0.0.1', port: t.tcpClosed } },
    { name: 'port by name', monitor: { type: 'port', hostname: 'localhost', port: t.tcpOpen } },

    // Ping.
    { name: 'ping loopback', monitor: { type: 'ping', hostname: '127.0.0.1' } },
    { name: 'ping localhost', monitor: { type: 'ping', hostname: 'localhost' } },

    // DNS against dnsmasq.
    dns('A', 'a.parity.test', 'A'),
    dns('A missing name', 'nx.parity.test', 'A'),
    dns('AAAA', 'v6.parity.test', 'AAAA'),
    dns('AAAA none', 'a.parity.test', 'AAAA'),
    dns('TXT', 'txt.parity.test', 'TXT'),
    dns('TXT condition met', 'txt.parity.test', 'TXT', { conditions: condition('contains', 'spf1') }),
    dns('TXT condition unmet', 'txt.parity.test', 'TXT', { conditions: condition('contains', 'nothing') }),
    dns('MX', 'parity.test', 'MX'),
    dns('CNAME', 'alias.parity.test', 'CNAME'),
    dns('A one of two', 'multi.parity.test', 'A', { conditions: condition('equals', '127.0.0.12') }),
    dns('A condition unmet', 'a.parity.test', 'A', { conditions: condition('equals', '127.0.0.99') }),
    dns('A not ending', 'a.parity.test', 'A', { conditions: condition('not_ends_with', '.10') }),
    dns('server down', 'a.parity.test', 'A', { port: t.tcpClosed }),
    dns('NS none', 'parity.test', 'NS'),
    dns('MX exchange condition', 'parity.test', 'MX', { conditions: condition('equals', 'mail.parity.test') }),
    dns('CNAME condition', 'alias.parity.test', 'CNAME', { conditions: condition('equals', 'a.parity.test') }),
    dns('A starts with', 'multi.parity.test', 'A', { conditions: condition('starts_with', '127.0.0.1') }),

    // WebSocket upgrade and closing codes.
    ws('closes 1000', '/close/1000', ['1000']),
    ws('closes 1001, 1000 expected', '/close/1001', ['1000']),
    ws('closes 4000 accepted', '/close/4000', ['4000']),
    ws('closes 1001 among two', '/close/1001', ['1000', '1001']),
    ws('refused upgrade', '/nowhere', ['1000']),
    ws('closed port', '/close/1000', ['1000'], t.tcpClosed),

    // MQTT (mosquitto on 1883) with retained messages.
    mqtt('keyword', { mqttSuccessMessage: 'online' }),
    mqtt('keyword mismatch', { mqttSuccessMessage: 'offline' }),
    mqtt('silent topic', { mqttTopic: 'parity/silent', mqttSuccessMessage: 'online', timeout: 5 }),
    mqtt('JSON query', { mqttTopic: 'parity/json', mqttCheckType: 'json-query', jsonPath: 'state', expectedValue: 'on' }),
    mqtt('JSON query mismatch', { mqttTopic: 'parity/json', mqttCheckType: 'json-query', jsonPath: 'state', expectedValue: 'off' }),
    mqtt('closed port', { port: t.tcpClosed, mqttSuccessMessage: 'online' }),
    mqtt('keyword inside', { mqttSuccessMessage: 'line' }),
    mqtt('no keyword', { mqttSuccessMessage: '' }),
    mqtt('with a scheme', { hostname: 'mqtt://127.0.0.1', mqttSuccessMessage: 'online' }),

    // Databases and brokers on their usual local ports.
    database('redis', 'up', 'redis://127.0.0.1:6379'),
    database('redis', 'closed port', `redis://127.0.0.1:${t.tcpClosed}`),
    database('mysql', 'up', 'mysql://root@127.0.0.1:3306/mysql', 'SELECT 1'),
    database('mysql', 'unknown database', 'mysql://root@127.0.0.1:3306/parity_nowhere', 'SELECT 1'),
    database('mysql', 'bad query', 'mysql://root@127.0.0.1:3306/mysql', 'SELECT nothing FROM nowhere'),
    database('postgres', 'up', 'postgres://postgres@127.0.0.1:5432/postgres', 'SELECT 1'),
    database('postgres', 'unknown database', 'postgres://postgres@127.0.0.1:5432/parity_nowhere', 'SELECT 1'),
    database('postgres', 'bad query', 'postgres://postgres@127.0.0.1:5432/postgres', 'SELECT nothing FROM nowhere'),
    { ...database('postgres', 'with a password', 'postgres://postgres:parity-pw@127.0.0.1:5432/postgres', 'SELECT 1'), secret: 'parity-pw' },
    { ...database('postgres', 'with a password, bad query', 'postgres://postgres:parity-pw@127.0.0.1:5432/postgres', 'SELECT nothing'), secret: 'parity-pw' },
    database('redis', 'database 1', 'redis://127.0.0.1:6379/1'),
    database('mysql', 'default query', 'mysql://root@127.0.0.1:3306/mysql'),
    {
      name: 'rabbitmq management API',
      monitor: { type: 'rabbitmq', rabbitmqNodes: ['http://127.0.0.1:15672'], rabbitmqUsername: 'guest', rabbitmqPassword: 'guest' },
      secret: 'guest',
    },

    // SMTP greeting.
    { name: 'smtp plain', monitor: { type: 'smtp', hostname: '127.0.0.1', port: t.smtp, smtpSecurity: 'nostarttls' } },
    { name: 'smtp closed port', monitor: { type: 'smtp', hostname: '127.0.0.1', port: t.tcpClosed, smtpSecurity: 'nostarttls' } },

    // Push: pushed, never pushed, pushed as down.
    { name: 'push pushed', monitor: { type: 'push', pushToken: pushToken(1) }, push: 'up' },
    { name: 'push silent', monitor: { type: 'push', pushToken: pushToken(2) } },
    { name: 'push pushed down', monitor: { type: 'push', pushToken: pushToken(3) }, push: 'down' },

    // A group with members, a paused monitor, and what cannot run here.
    { name: 'group of two', monitor: { type: 'group' }, single: true },
    { ...http('in a group', '/ok'), group: 'group of two' },
    { ...http('failing in a group', '/status/503'), group: 'group of two' },
    { ...http('paused', '/ok', { active: false }), single: true },

    // Docker: containers of the run's podman engine, over its Unix socket.
    ...dockerCases(t),

    // gRPC keyword: the standard health method as Kuma's form shows it (protobuf service Health,
    // method check, the service asked about in the body), the keyword looked for in the answer.
    grpc('keyword present', '', 'SERVING'),
    grpc('keyword absent', '', 'DEGRADED'),
    grpc('keyword inverted', '', 'NOT_SERVING', true),
    grpc('service serving', 'parity.serving', 'SERVING'),
    grpc('service not serving', 'parity.down', 'SERVING'),
    grpc('service not serving, inverted', 'parity.down', 'NOT_SERVING', true),
    grpc('unknown service', 'parity.nowhere', 'SERVING'),
    grpc('keyword in the JSON only', '', 'status'),
    grpc('closed port', '', 'SERVING', false, t.tcpClosed),
  ];

  function grpc(name: string, service: string, keyword: string, invertKeyword = false, port = t.grpc): ParityCase {
    return {
      name: `grpc ${name}`,
      monitor: {
        type: 'grpc-keyword',
        grpcUrl: `127.0.0.1:${port}`,
        grpcProtobuf: HEALTH_PROTO,
        grpcServiceName: 'Health',
        grpcMethod: 'check',
        grpcBody: JSON.stringify({ service }),
        grpcEnableTls: false,
        keyword,
        invertKeyword,
      },
    };
  }
}

/** Docker monitors of a created, a missing and (where containers start) a running and an exited container. */
function dockerCases(t: Targets): ParityCase[] {
  const docker = (name: string, container: string): ParityCase => ({
    name: `docker ${name}`,
    monitor: { type: 'docker', docker_container: container },
    dockerHost: true,
  });
  if ('missing' in t.docker) return [{ name: 'docker container', monitor: { type: 'docker' }, notRun: t.docker.missing, single: true }];
  const { containers } = t.docker;
  return [
    docker('created', containers.created),
    docker('missing', 'parity-nowhere'),
    ...(containers.running ? [docker('running', containers.running)] : []),
    ...(containers.exited ? [docker('exited', containers.exited)] : []),
    ...(containers.cannotStart
      ? [{ name: 'docker running', monitor: { type: 'docker' }, notRun: `podman cannot start containers here: ${containers.cannotStart}`, single: true }]
      : []),
  ];
}

/** A push monitor's twin needs a token of its own. */
function twinToken(monitor: Record<string, unknown>): Record<string, unknown> {
  return typeof monitor.pushToken === 'string' ? { pushToken: `${monitor.pushToken.slice(0, -1)}u` } : {};
}

/** The cases with an upside-down twin for each that has one. */
export function withUpsideDown(cases: ParityCase[]): ParityCase[] {
  return cases.flatMap((item) =>
    item.single || item.notRun
      ? [item]
      : [item, { ...item, name: `${item.name} (upside down)`, monitor: { ...item.monitor, upsideDown: true, ...twinToken(item.monitor) } }],
  );
}
