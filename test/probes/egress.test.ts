import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOf, probe, testEgress } from './support/probe-run.js';

const LINK_LOCAL = 'egress policy refuses 169.254.169.254 (link-local, metadata or unspecified address)';

describe('the egress policy', () => {
  it('refuses link-local and metadata addresses always, and private ranges only with denyPrivate', () => {
    const open = testEgress();
    const strict = testEgress({ denyPrivate: true });
    for (const address of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '0.0.0.0']) {
      expect(open.refusal(address), address).toMatch(/^egress policy refuses .* \(link-local, metadata or unspecified address\)$/);
    }
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '172.16.0.1', '192.168.1.1', 'fd12::1', '::ffff:10.0.0.1', '::ffff:7f00:1']) {
      expect(open.refusal(address), address).toBeUndefined();
      expect(strict.refusal(address), address).toMatch(/^egress policy refuses .* \(loopback or private address\)$/);
    }
    expect(strict.refusal('93.184.215.14')).toBeUndefined();
  });

  it('turns a refused target into a down result saying so, for every probe type', async () => {
    const targets: Array<[Parameters<typeof checkOf>[0], string]> = [
      ['http', 'http://169.254.169.254/latest/meta-data/'],
      ['tcp', '169.254.169.254:80'],
      ['udp', '169.254.169.254:53'],
      ['tls', '169.254.169.254:443'],
      ['websocket', 'ws://169.254.169.254/'],
      ['icmp', '169.254.169.254'],
    ];
    for (const [type, target] of targets) {
      expect(await probe(checkOf(type, target)), type).toMatchObject({ status: 'down', message: LINK_LOCAL });
    }
    expect(await probe(checkOf('tcp', '[fe80::1]:80'))).toMatchObject({
      status: 'down',
      message: 'egress policy refuses fe80::1 (link-local, metadata or unspecified address)',
    });
  });

  it('refuses loopback targets with denyPrivate, by address or by a name that resolves to loopback', async () => {
    const strict = testEgress({ denyPrivate: true });
    const loopback = /^egress policy refuses (127\.0\.0\.1|::1) \(loopback or private address\)$/;
    for (const [type, target] of [
      ['http', 'http://127.0.0.1:9/'],
      ['tcp', '127.0.0.1:9'],
      ['icmp', '127.0.0.1'],
      ['http', 'http://localhost:9/'],
      ['tcp', 'localhost:9'],
      ['dns', 'example.com'],
    ] as const) {
      const check = type === 'dns' ? checkOf('dns', target, { resolver: '127.0.0.1:53' }) : checkOf(type, target);
      const result = await probe(check, strict);
      expect(result.status, `${type} ${target}`).toBe('down');
      expect(result.message, `${type} ${target}`).toMatch(loopback);
    }
  });
});

describe('the egress policy on redirects (real local HTTP server)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/to-metadata') response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else if (request.url === '/to-metadata-by-ipv6') response.writeHead(307, { location: 'http://[::ffff:169.254.169.254]/' }).end();
      else response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a redirect to a refused address', async () => {
    expect(await probe(checkOf('http', `${base}/to-metadata`))).toMatchObject({ status: 'down', message: LINK_LOCAL });
    const mapped = await probe(checkOf('http', `${base}/to-metadata-by-ipv6`));
    expect(mapped.status).toBe('down');
    expect(mapped.message).toBe('egress policy refuses ::ffff:a9fe:a9fe (link-local, metadata or unspecified address)');
  });

  it('does not follow the redirect at all when followRedirects is off', async () => {
    expect(await probe(checkOf('http', `${base}/to-metadata`, { followRedirects: false, expectedStatusCodes: [302] }))).toMatchObject({ status: 'up' });
  });
});
