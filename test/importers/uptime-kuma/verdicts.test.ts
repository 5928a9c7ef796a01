import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import type { ConversionResult } from '../../../importers/converter.js';
import { convertSelfhostedMonitorDb, prepareSelfhostedMonitorDb } from '../../../importers/uptime-kuma/index.js';
import { startHealthServer, type HealthServer } from '../../support/grpc-health-server.js';
import { ensureService } from '../../support/local-servers.js';
import { runCheck } from '../../support/probe-runs.js';

// Each monitor converts to a check that reaches the verdict Uptime Kuma 2.5.3 reached, through
// explicit settings, or the item carries a warning saying what behaves differently. The Kuma
// code each case follows is named beside it (tag 2.5.3 of louislam/uptime-kuma).

beforeAll(async () => {
  await prepareSelfhostedMonitorDb();
});

/** Converts one monitor, written as a 2.x database row would hold it, through a backup file. */
function convertOne(monitor: Record<string, unknown>): ConversionResult {
  const backup = {
    version: '2.0.0',
    notificationList: [],
    monitorList: [{ id: 1, name: 'Probe', active: true, interval: 60, ...monitor }],
  };
  return convertSelfhostedMonitorDb(JSON.stringify(backup));
}

function only(monitor: Record<string, unknown>) {
  const result = convertOne(monitor);
  expect(result.checks).toHaveLength(1);
  return { check: result.checks[0]!, warnings: result.warnings };
}

describe('HTTP monitors', () => {
  test('certificate and domain expiry reminders only notify in Kuma: no failing assertion, a warning (server/model/monitor.js handleTlsInfo, server/util-server.js checkCertExpiryNotifications)', () => {
    const { check, warnings } = only({ type: 'http', url: 'https://127.0.0.1/', expiryNotification: true, domain_expiry_notification: true });
    expect(check.config).not.toHaveProperty('certificateExpiryDays');
    expect(check.config).not.toHaveProperty('domainExpiryDays');
    expect(warnings.map((warning) => [warning.code, warning.field])).toEqual([
      ['NOTIFICATIONS_DROPPED', 'expiryNotification'],
      ['NOTIFICATIONS_DROPPED', 'domain_expiry_notification'],
    ]);
    expect(warnings[0]!.message).toMatch(/never made the monitor fail/);
  });

  test('a keyword monitor searches a JSON body re-serialised, case-sensitively (monitor.js keyword branch)', () => {
    const { check } = only({ type: 'keyword', url: 'http://127.0.0.1/', keyword: '"ok":true', invertKeyword: true });
    expect(check.config).toMatchObject({
      keyword: { value: '"ok":true', expect: 'absent', caseSensitive: true },
      keywordSearch: 'reserialised-json',
    });
  });

  test('a JSON query compares text, fails on non-scalars and reads a non-JSON body as text (src/util.ts evaluateJsonQuery)', () => {
    const { check } = only({ type: 'json-query', url: 'http://127.0.0.1/', jsonPath: 'version', jsonPathOperator: '==', expectedValue: '2.10' });
    expect(check.config).toMatchObject({
      jsonQueries: [{ expression: 'version', operator: '==', expected: '2.10', compareAs: 'text', scalarOnly: true }],
      nonJsonBody: 'text',
    });
  });

  test('a JSON query without a path compares the whole body, as Kuma does', () => {
    const { check } = only({ type: 'json-query', url: 'http://127.0.0.1/', jsonPathOperator: 'contains', expectedValue: 'up' });
    expect(check.config).toMatchObject({ jsonQueries: [{ expression: '$', operator: 'contains', expected: 'up' }] });
  });
});

describe('DNS monitors (server/monitor-types/dns.js, server/monitor-conditions/)', () => {
  const dns = (conditions: unknown[], extra: Record<string, unknown> = {}) =>
    convertOne({ type: 'dns', hostname: 'x.test', dns_resolve_type: 'TXT', dns_resolve_server: '127.0.0.1', conditions: JSON.stringify(conditions), ...extra });

  test('conditions become answer conditions evaluated per answer, joined as in Kuma; no answer is down', () => {
    const result = dns([
      { type: 'expression', variable: 'record', operator: 'contains', value: 'spf1', andOr: 'and' },
      { type: 'expression', variable: 'record', operator: 'not_ends_with', value: '~all', andOr: 'or' },
      { type: 'expression', variable: 'record', operator: 'equals', value: 'Mail.Example.COM.' },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.checks[0]!.config).toMatchObject({
      requireAnswers: true,
      answerConditions: [
        { join: 'and', operator: 'contains', value: 'spf1' },
        { join: 'or', operator: 'not-ends-with', value: '~all' },
        { join: 'and', operator: 'equals', value: 'Mail.Example.COM.' },
      ],
    });
    expect(result.checks[0]!.config).toMatchObject({ expectedValues: [] });
  });

  test('a monitor without conditions still requires answers', () => {
    expect(dns([]).checks[0]!.config).toMatchObject({ requireAnswers: true });
    expect(dns([]).checks[0]!.config).not.toHaveProperty('answerConditions');
  });

  test.each([
    ['an unknown operator', [{ type: 'expression', variable: 'record', operator: 'matches_regex', value: 'x' }], /operator "matches_regex" has no equivalent/],
    ['a nested group', [{ type: 'group', children: [{ type: 'expression', variable: 'record', operator: 'equals', value: 'x' }] }], /nested condition groups/],
  ])('%s: the conditions are left out with an UNSUPPORTED_SETTING warning saying the check is up more often', (_name, conditions, message) => {
    const result = dns(conditions);
    expect(result.checks[0]!.config).not.toHaveProperty('answerConditions');
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatchObject({ code: 'UNSUPPORTED_SETTING', field: 'conditions' });
    expect(result.warnings[0]!.message).toMatch(message);
  });
});

describe('SNMP monitors (server/monitor-types/snmp.js)', () => {
  test('the community string becomes a secret reference with a warning naming the secret, never "public" by default', () => {
    const result = convertOne({
      type: 'snmp',
      hostname: '127.0.0.1',
      port: 161,
      snmp_version: '2c',
      snmp_oid: '1.3.6.1.2.1.1.3.0',
      radiusPassword: 'n0t-public',
      jsonPathOperator: '>',
      expectedValue: '0',
    });
    const config = result.checks[0]!.config as Record<string, unknown>;
    expect(config.community).toMatch(/^\{\{secrets\.[A-Z0-9_]+\}\}$/);
    expect(JSON.stringify(result)).not.toContain('n0t-public');
    const warning = result.warnings.find((item) => item.code === 'SECRET_DROPPED');
    expect(warning?.message).toMatch(/svc secrets set [A-Z0-9_]+/);
    // The value is compared as Kuma's JSON query compares it.
    expect(config.condition).toEqual({ operator: '>', expected: '0', compareAs: 'text' });
  });

  test('without an expected value Kuma fails every check: the check says so', () => {
    const result = convertOne({ type: 'snmp', hostname: '127.0.0.1', snmp_version: '1', snmp_oid: '1.3.6.1.2.1.1.3.0' });
    expect(result.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'expected_value' }]);
  });
});

describe('WebSocket monitors (server/monitor-types/websocket-upgrade.js)', () => {
  test('the accepted codes become the closing codes the check expects', () => {
    const { check, warnings } = only({ type: 'websocket-upgrade', url: 'ws://127.0.0.1/', accepted_statuscodes: ['1000', '4000-4099'] });
    expect(check.config).toMatchObject({ expectedCloseCodes: [1000, '4000-4099'] });
    expect(warnings).toEqual([]);
  });

  test('subprotocols: spaces taken out as Kuma does; past 10, or not a token, left out with a warning instead of the monitor skipped', () => {
    const many = Array.from({ length: 12 }, (_, i) => `p${i}`).join(', ');
    const { check, warnings } = only({ type: 'websocket-upgrade', url: 'ws://127.0.0.1/', ws_subprotocol: `v1 .stream, ${many}, a/b` });
    expect(check.config.subprotocols).toEqual(['v1.stream', 'p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8']);
    expect(warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'ws_subprotocol', message: expect.stringContaining('p9, p10, p11, a/b') }]);
  });

  test('a list without a closing code (down on every check in Kuma) accepts 1000, with a warning', () => {
    const result = convertOne({ type: 'websocket-upgrade', url: 'ws://127.0.0.1/', accepted_statuscodes: ['200-299'] });
    expect(result.checks[0]!.config).toMatchObject({ expectedCloseCodes: [1000] });
    expect(result.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'accepted_statuscodes' }]);
  });
});

describe('WebSocket sign-in and TLS (websocket-upgrade.js buildWsOptions; ws and node:http send URL credentials as basic auth)', () => {
  let server: Server;
  let port: number;
  const user = 'ops';
  const password = 'p@ss word';
  const basic = Buffer.from(`${user}:${password}`).toString('base64');

  beforeAll(async () => {
    server = createServer();
    // A real ws server that lets in only the expected basic-auth credentials.
    new WebSocketServer({ server, verifyClient: ({ req }) => req.headers.authorization === `Basic ${basic}` });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The check as the runner hands it to the probe once the secret of its Authorization header is set. */
  const withSecret = (check: ConversionResult['checks'][number], value: string) => {
    const headers = check.config.headers as Record<string, string>;
    expect(headers.Authorization).toMatch(/^Basic \{\{secrets\.[A-Z0-9_]+\}\}$/);
    return { ...check, config: { ...check.config, headers: { ...headers, Authorization: `Basic ${value}` } } } as never;
  };

  test('basic auth is the Authorization header Kuma sends: up once its secret is set, down without it', async () => {
    const { check, warnings } = only({
      type: 'websocket-upgrade',
      url: `ws://127.0.0.1:${port}/`,
      authMethod: 'basic',
      basic_auth_user: user,
      basic_auth_pass: password,
    });
    expect(warnings).toMatchObject([{ code: 'SECRET_DROPPED', field: 'basic_auth_pass' }]);
    expect(warnings[0]!.message).toMatch(/base64 of user:password/);
    expect(await runCheck(withSecret(check, basic), [basic])).toMatchObject({ status: 'up' });
    expect(await runCheck({ ...check, config: { ...check.config, headers: {} } } as never)).toMatchObject({ status: 'down' });
  });

  test('credentials in the URL sign in the same way and leave the URL', async () => {
    const { check, warnings } = only({ type: 'websocket-upgrade', url: `ws://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/` });
    expect(check.target).toBe(`ws://127.0.0.1:${port}/`);
    expect(warnings).toMatchObject([{ code: 'SECRET_DROPPED', field: 'url' }]);
    expect(await runCheck(withSecret(check, basic), [basic])).toMatchObject({ status: 'up' });
  });

  test('an Authorization header of the monitor beats the URL credentials, as in node:http', () => {
    const { check, warnings } = only({ type: 'websocket-upgrade', url: `ws://a:b@127.0.0.1:${port}/`, authMethod: 'bearer', bearer_token: 't' });
    expect(check.target).toBe(`ws://127.0.0.1:${port}/`);
    expect(check.config.headers).toEqual({ Authorization: expect.stringMatching(/^Bearer \{\{secrets\./) });
    expect(warnings.map((warning) => [warning.code, warning.field])).toEqual([
      ['SECRET_DROPPED', 'bearer_token'],
      ['VALUE_ADJUSTED', 'url'],
    ]);
  });

  test('"ignore TLS errors" is passed on only with mTLS: otherwise the certificate is verified, with a warning', () => {
    const { check, warnings } = only({ type: 'websocket-upgrade', url: 'wss://127.0.0.1/', ignoreTls: true });
    expect(check.config.ignoreTlsErrors).toBe(false);
    expect(warnings).toMatchObject([{ code: 'VALUE_ADJUSTED', field: 'ignoreTls' }]);
  });
});

describe('MQTT monitors (server/monitor-types/mqtt.js)', () => {
  test('a JSON query compares the text with == whatever the operator, as Kuma does, and says so', () => {
    const result = convertOne({
      type: 'mqtt',
      hostname: '127.0.0.1',
      port: 1883,
      mqttTopic: 't',
      mqttCheckType: 'json-query',
      jsonPath: 'v',
      jsonPathOperator: '>',
      expectedValue: '20',
    });
    expect(result.checks[0]!.config).toMatchObject({ jsonQueries: [{ expression: 'v', operator: '==', expected: '20', compareAs: 'text' }] });
    expect(result.warnings).toMatchObject([{ code: 'VALUE_ADJUSTED', field: 'jsonPathOperator' }]);
  });

  test('conditions, which Kuma tests instead of the keyword, are an UNSUPPORTED_SETTING', () => {
    const conditions = JSON.stringify([{ type: 'expression', variable: 'message', operator: 'contains', value: 'ok' }]);
    const result = convertOne({ type: 'mqtt', hostname: '127.0.0.1', port: 1883, mqttTopic: 't', mqttSuccessMessage: 'ok', conditions });
    expect(result.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'conditions' }]);
  });
});

describe('other monitor types', () => {
  test('a real-browser monitor accepts 200-399 whatever its list says (server/monitor-types/real-browser-monitor-type.js)', () => {
    const { check } = only({ type: 'real-browser', url: 'https://127.0.0.1/', accepted_statuscodes: ['200-299'] });
    expect(check.config).toMatchObject({ expectedStatusCodes: ['200-399'] });
  });

  test('a real-browser monitor verifies the certificate whatever "ignore TLS errors" says (its browser context has no ignoreHTTPSErrors): so does the check', () => {
    const { check, warnings } = only({ type: 'real-browser', url: 'https://127.0.0.1/', ignoreTls: true });
    expect(check.config).toMatchObject({ ignoreTlsErrors: false });
    expect(warnings).toMatchObject([{ code: 'VALUE_ADJUSTED', field: 'ignoreTls' }]);
  });

  test('a Docker monitor warns that restarting and starting containers were pending, not down (server/model/monitor.js docker branch)', () => {
    const result = convertOne({ type: 'docker', docker_container: 'web' });
    expect(result.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'docker_container' }]);
    // And a running container without a health check on podman, whose empty health status Kuma
    // took for a pending one (the differential run against podman's Engine API found it).
    expect(result.warnings[0]!.message).toContain('empty health status (podman)');
  });
});

describe('port monitors (server/monitor-types/tcp.js)', () => {
  test('an expected TLS alert and a certificate check on TLS are reported as not checked', () => {
    const alert = convertOne({ type: 'port', hostname: '127.0.0.1', port: 443, expected_tls_alert: 'certificate_required' });
    expect(alert.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'expected_tls_alert' }]);
    const certificate = convertOne({ type: 'port', hostname: '127.0.0.1', port: 465, smtpSecurity: 'secure', expiryNotification: true });
    expect(certificate.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'smtpSecurity' }]);
  });
});

describe('HTTP request bodies (server/model/monitor.js, body encoding)', () => {
  test('a JSON body that does not parse (Kuma fails every check) is sent as it is, with a warning', () => {
    const bad = convertOne({ type: 'http', url: 'http://127.0.0.1/', method: 'POST', body: '{not json', httpBodyEncoding: 'json' });
    expect(bad.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'body' }]);
    const good = convertOne({ type: 'http', url: 'http://127.0.0.1/', method: 'POST', body: '{"a": 1}', httpBodyEncoding: 'json' });
    expect(good.warnings).toEqual([]);
    const form = convertOne({ type: 'http', url: 'http://127.0.0.1/', method: 'POST', body: 'a=1', httpBodyEncoding: 'form' });
    expect(form.warnings).toEqual([]);
  });
});

describe('database monitors (server/monitor-types/mysql.js)', () => {
  test('conditions on the query result are reported as left out', () => {
    const conditions = JSON.stringify([{ type: 'expression', variable: 'result', operator: 'equals', value: '1' }]);
    const result = convertOne({ type: 'mysql', databaseConnectionString: 'mysql://app@127.0.0.1:3306/shop', databaseQuery: 'SELECT 1', conditions });
    expect(result.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'conditions' }]);
  });
});

describe('PostgreSQL monitors (server/monitor-types/postgres.js postgresQuery)', () => {
  test('a connection string without a password, which Kuma rejects before connecting, is reported; the check is up on a server that lets it in', async () => {
    await ensureService('postgresql', 5432);
    const { check, warnings } = only({ type: 'postgres', databaseConnectionString: 'postgres://postgres@127.0.0.1:5432/postgres', databaseQuery: 'SELECT 1' });
    expect(warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'databaseConnectionString' }]);
    expect(warnings[0]!.message).toMatch(/no password: Uptime Kuma fails every check of it \("Password is undefined\."\)/);
    // The local server trusts loopback: the check gets in, where Kuma's monitor was down.
    expect(await runCheck(check)).toMatchObject({ status: 'up' });
  });

  test('with a password, in the URL or as an option, there is no such warning', () => {
    for (const databaseConnectionString of ['postgres://app:pw@127.0.0.1:5432/shop', 'postgres://app@127.0.0.1:5432/shop?password=pw']) {
      const { warnings } = only({ type: 'postgres', databaseConnectionString });
      expect(warnings.filter((warning) => warning.code === 'UNSUPPORTED_SETTING')).toEqual([]);
    }
  });
});

describe('SMTP monitors (server/monitor-types/smtp.js)', () => {
  test('certificates are verified as Kuma does, whatever ignore TLS says; an unset security mode is reported', () => {
    const secure = convertOne({ type: 'smtp', hostname: '127.0.0.1', port: 465, smtpSecurity: 'secure', ignoreTls: true });
    expect(secure.checks[0]!.config).toMatchObject({ security: 'tls', ignoreTlsErrors: false });
    expect(secure.warnings).toMatchObject([{ code: 'VALUE_ADJUSTED', field: 'ignoreTls' }]);
    const unset = convertOne({ type: 'smtp', hostname: '127.0.0.1', port: 25 });
    expect(unset.warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'smtp_security' }]);
  });
});

describe('gRPC keyword monitors (server/monitor-types/grpc.js)', () => {
  // The monitor as Kuma's form suggests it (src/pages/EditMonitor.vue placeholders): the protobuf
  // service Health, its method `check`, and the health service asked about in the JSON body.
  const kumaHealth = (port: number, extra: Record<string, unknown>) => ({
    type: 'grpc-keyword',
    grpcUrl: `127.0.0.1:${port}`,
    grpcServiceName: 'Health',
    grpcMethod: 'check',
    grpcProtobuf: 'syntax = "proto3"; package grpc.health.v1; service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }',
    grpcBody: '{"service":"orders"}',
    ...extra,
  });
  let server: HealthServer;
  beforeAll(async () => {
    server = await startHealthServer();
    server.statuses.set('orders', 'SERVING');
    server.statuses.set('billing', 'NOT_SERVING');
  });
  afterAll(() => server.close());

  test("the service asked about is the body's, not the protobuf service name; the health call itself is no warning", async () => {
    const { check, warnings } = only(kumaHealth(server.port, { keyword: 'NOT_SERVING', invertKeyword: true }));
    expect(check.config).toMatchObject({ service: 'orders', keyword: { value: 'NOT_SERVING', expect: 'absent' } });
    // Only the keyword's: even inverted NOT_SERVING was up in Kuma on an UNKNOWN answer ({}).
    expect(warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'keyword' }]);
    expect(await runCheck(check)).toMatchObject({ status: 'up', message: 'service orders is SERVING' });
  });

  test('a keyword Kuma found in the JSON of any answer ({"status":"NOT_SERVING"} contains SERVING) is a warning; the check is down on NOT_SERVING', async () => {
    const { check, warnings } = only(kumaHealth(server.port, { grpcBody: '{"service":"billing"}', keyword: 'SERVING' }));
    expect(warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'keyword' }]);
    expect(await runCheck(check)).toMatchObject({ status: 'down', message: 'service billing is NOT_SERVING' });
    expect(only(kumaHealth(server.port, { keyword: 'status' })).warnings).toMatchObject([{ field: 'keyword' }]);
  });

  test('an address without a port is dialed on 443, as grpc-js does (resolver-dns.ts DEFAULT_PORT)', () => {
    expect(only({ type: 'grpc-keyword', grpcUrl: 'grpc.example.com' }).check.target).toBe('grpc.example.com:443');
    expect(only({ type: 'grpc-keyword', grpcUrl: 'https://grpc.example.com/' }).check.target).toBe('grpc.example.com:443');
    expect(only({ type: 'grpc-keyword', grpcUrl: 'grpc.example.com:50051' }).check.target).toBe('grpc.example.com:50051');
  });

  test('"ignore TLS errors" is not passed on (grpc.js: createSsl() without arguments verifies the certificate): the check verifies too, with a warning', () => {
    const { check, warnings } = only({ type: 'grpc-keyword', grpcUrl: 'grpc.example.com:443', grpcEnableTls: true, ignoreTls: true });
    expect(check.config).toMatchObject({ useTls: true, ignoreTlsErrors: false });
    expect(warnings).toMatchObject([{ code: 'VALUE_ADJUSTED', field: 'ignoreTls' }]);
  });

  test('a body with more than the service is reported', () => {
    const { check, warnings } = only(kumaHealth(server.port, { grpcBody: '{"service":"orders","extra":1}', keyword: 'NOT_SERVING', invertKeyword: true }));
    expect(check.config).toMatchObject({ service: 'orders' });
    expect(warnings).toMatchObject([{ code: 'UNSUPPORTED_SETTING', field: 'grpcBody' }, { field: 'keyword' }]);
    expect(warnings[0]!.message).toContain('only the service of the request body was kept');
  });
});
