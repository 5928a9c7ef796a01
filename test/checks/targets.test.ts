import { describe, expect, test } from 'vitest';
import { validateCheck, sampleCheck, type CheckTypeName } from '../../checks/index.js';
import { hostPortProblem, isHostName, isIPv4, isIPv6, urlProblem } from '../../checks/hosts.js';

function targetProblem(type: CheckTypeName, target: string): string | undefined {
  const { slug: _slug, ...sample } = sampleCheck(type)!;
  const result = validateCheck({ ...sample, target });
  if (result.ok) return undefined;
  expect(result.issues.map((issue) => issue.path)).toEqual(['target']);
  return result.issues[0].message;
}

describe('host parsing', () => {
  test.each(['example.com', 'localhost', 'db-1.internal', '_sip._tcp.example.com', 'example.com.', 'xn--bcher-kva.example'])('%s is a host name', (value) =>
    expect(isHostName(value)).toBe(true),
  );

  test.each(['', '-lead.example.com', 'trail-.example.com', 'a..b', 'spa ce.com', '999.1.1.1', `${'a'.repeat(64)}.com`])('%j is not a host name', (value) =>
    expect(isHostName(value)).toBe(false),
  );

  test('recognises IP addresses', () => {
    expect(isIPv4('192.0.2.10')).toBe(true);
    expect(isIPv4('256.0.0.1')).toBe(false);
    expect(isIPv4('1.2.3')).toBe(false);
    expect(isIPv6('2001:db8::1')).toBe(true);
    expect(isIPv6('::1')).toBe(true);
    expect(isIPv6('2001:db8::g')).toBe(false);
    expect(isIPv6('example.com')).toBe(false);
  });

  test.each([
    ['db.example.com:5432', true, undefined],
    ['db.example.com', false, undefined],
    ['[2001:db8::1]:443', true, undefined],
    ['[::1]', false, undefined],
    ['192.0.2.1:65535', true, undefined],
    ['db.example.com', true, 'a port is required (host:port)'],
    ['db.example.com:0', true, '"0" is not a port between 1 and 65535'],
    ['db.example.com:70000', true, '"70000" is not a port between 1 and 65535'],
    ['db.example.com:http', true, '"http" is not a port between 1 and 65535'],
    ['2001:db8::1', false, 'write an IPv6 address in brackets, e.g. [2001:db8::1]:443'],
    ['[2001:db8::1', false, 'unclosed "[" around an IPv6 address'],
    ['tcp://db.example.com:5432', true, 'expected host:port, not a URL'],
    ['bad_host!:80', true, '"bad_host!" is not a valid host name or IP address'],
  ])('host:port %j (port required: %s)', (value, portRequired, problem) => {
    expect(hostPortProblem(value, portRequired)).toBe(problem);
  });

  test('checks URL schemes, hosts and credentials', () => {
    expect(urlProblem('https://example.com/x?y=1', ['http', 'https'])).toBeUndefined();
    expect(urlProblem('example.com', ['http', 'https'])).toBe('expected an absolute URL (http://, https://)');
    expect(urlProblem('ws://example.com', ['http', 'https'])).toBe('the URL scheme must be http or https, not ws');
    expect(urlProblem('https://', ['http', 'https'])).toBeDefined();
    expect(urlProblem('https://token@example.com', ['https'])).toMatch(/credentials/);
  });
});

describe('targets per type', () => {
  test('URL types accept their own schemes only', () => {
    expect(targetProblem('http', 'http://example.com:8080/health')).toBeUndefined();
    expect(targetProblem('browser', 'https://example.com/')).toBeUndefined();
    expect(targetProblem('websocket', 'ws://example.com/socket')).toBeUndefined();
    expect(targetProblem('websocket', 'https://example.com/socket')).toMatch(/ws or wss/);
    expect(targetProblem('http', 'wss://example.com/')).toMatch(/http or https/);
    expect(targetProblem('rabbitmq', 'amqp://rabbit.example.com')).toMatch(/http or https/);
  });

  test('host:port types with a default port accept a bare host; the others need the port', () => {
    expect(targetProblem('postgres', 'pg.example.com')).toBeUndefined();
    expect(targetProblem('tls', '[2001:db8::1]')).toBeUndefined();
    expect(targetProblem('tcp', 'pg.example.com')).toBe('a port is required (host:port)');
    expect(targetProblem('udp', 'dns.example.com')).toBe('a port is required (host:port)');
    expect(targetProblem('grpc', 'grpc.example.com')).toBe('a port is required (host:port)');
  });

  test('ping takes a host without a port', () => {
    expect(targetProblem('icmp', 'router.example.com')).toBeUndefined();
    expect(targetProblem('icmp', '2001:db8::1')).toBeUndefined();
    expect(targetProblem('icmp', '[2001:db8::1]')).toBeUndefined();
    expect(targetProblem('icmp', 'router.example.com:22')).toBeDefined();
    expect(targetProblem('icmp', 'icmp://router.example.com')).toBe('expected a host name or IP address, not a URL');
  });

  test('domain checks need a registered domain name', () => {
    expect(targetProblem('domain', 'example.co.uk')).toBeUndefined();
    expect(targetProblem('domain', 'localhost')).toBeDefined();
    expect(targetProblem('domain', '192.0.2.1')).toBeDefined();
  });

  test('DNS checks resolve names, SRV names and (for PTR) addresses', () => {
    expect(targetProblem('dns', '_imaps._tcp.example.com')).toBeUndefined();
    expect(targetProblem('dns', '192.0.2.1')).toBeUndefined();
    expect(targetProblem('dns', 'not a name')).toBe('must not contain spaces');
  });

  test('docker checks name a container', () => {
    expect(targetProblem('docker', 'a1b2c3d4e5f6')).toBeUndefined();
    expect(targetProblem('docker', 'my_app.web-1')).toBeUndefined();
    expect(targetProblem('docker', '/leading-slash')).toBeDefined();
  });

  test('heartbeat checks have no target', () => {
    expect(targetProblem('heartbeat', '')).toBeUndefined();
    expect(targetProblem('heartbeat', 'https://example.com')).toMatch(/no target/);
  });

  test('targets never carry spaces', () => {
    expect(targetProblem('http', ' https://example.com/')).toBe('must not contain spaces');
    expect(targetProblem('tcp', '')).toBe('must not be empty');
  });
});
