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

  it('judges every range by a table: what an open policy refuses, and what deny-private adds', () => {
    const ALWAYS = 'link-local, metadata or unspecified address';
    const NOT_UNICAST = 'multicast, broadcast or reserved address';
    const PRIVATE = 'loopback or private address';
    // [address, refusal of an open policy, refusal with denyPrivate]
    const table: Array<[string, string | undefined, string | undefined]> = [
      ['93.184.215.14', undefined, undefined],
      ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', undefined, undefined],
      ['224.0.0.251', NOT_UNICAST, NOT_UNICAST],
      ['239.255.255.250', NOT_UNICAST, NOT_UNICAST],
      ['240.0.0.1', NOT_UNICAST, NOT_UNICAST],
      ['255.255.255.255', NOT_UNICAST, NOT_UNICAST],
      ['ff02::1', NOT_UNICAST, NOT_UNICAST],
      ['198.18.0.1', undefined, PRIVATE],
      ['198.19.255.254', undefined, PRIVATE],
      ['192.0.0.170', undefined, PRIVATE],
      ['fec0::1', undefined, PRIVATE],
      // IPv4-mapped and SIIT forms: the IPv4 address they spell.
      ['::ffff:0:169.254.169.254', ALWAYS, ALWAYS],
      ['::ffff:0:a9fe:a9fe', ALWAYS, ALWAYS],
      ['::ffff:0:10.0.0.1', undefined, PRIVATE],
      ['::ffff:0:7f00:1', undefined, PRIVATE],
      ['::ffff:0:93.184.215.14', undefined, undefined],
      // NAT64 (well-known and local-use prefixes), 6to4 and IPv4-compatible: judged by the IPv4 they carry.
      ['64:ff9b::169.254.169.254', ALWAYS, ALWAYS],
      ['64:ff9b::a9fe:a9fe', ALWAYS, ALWAYS],
      ['64:ff9b::7f00:1', undefined, PRIVATE],
      ['64:ff9b::10.1.2.3', undefined, PRIVATE],
      ['64:ff9b:1::a9fe:a9fe', ALWAYS, ALWAYS],
      ['64:ff9b::5db8:d70e', undefined, undefined],
      ['2002:a9fe:a9fe::1', ALWAYS, ALWAYS],
      ['2002:7f00:1::', undefined, PRIVATE],
      ['2002:c0a8:101::1', undefined, PRIVATE],
      ['2002:5db8:d70e::1', undefined, undefined],
      ['::169.254.169.254', ALWAYS, ALWAYS],
      ['::a9fe:a9fe', ALWAYS, ALWAYS],
      ['::10.0.0.1', undefined, PRIVATE],
      ['::224.0.0.1', NOT_UNICAST, NOT_UNICAST],
      ['::1', undefined, PRIVATE],
      ['::', ALWAYS, ALWAYS],
    ];
    const open = testEgress();
    const strict = testEgress({ denyPrivate: true });
    for (const [address, openly, strictly] of table) {
      expect(open.refusal(address), `${address} (open)`).toBe(openly && `egress policy refuses ${address} (${openly})`);
      expect(strict.refusal(address), `${address} (deny-private)`).toBe(strictly && `egress policy refuses ${address} (${strictly})`);
    }
  });

  it('connects only inside the allow-list when one is set, and still refuses what is denied inside it', () => {
    const allowLoopback = testEgress({ allow: ['127.0.0.0/8', '::1'] });
    expect(allowLoopback.refusal('127.0.0.1')).toBeUndefined();
    expect(allowLoopback.refusal('::1')).toBeUndefined();
    expect(allowLoopback.refusal('::ffff:127.0.0.2')).toBeUndefined();
    expect(allowLoopback.refusal('93.184.215.14')).toBe('egress policy refuses 93.184.215.14 (outside the allowed networks)');
    expect(allowLoopback.refusal('::2')).toBe('egress policy refuses ::2 (link-local, metadata or unspecified address)');
    expect(allowLoopback.refusal('64:ff9b::7f00:1')).toBe('egress policy refuses 64:ff9b::7f00:1 (outside the allowed networks)');
    const everything = testEgress({ allow: ['0.0.0.0/0', '::/0'], denyPrivate: true });
    expect(everything.refusal('169.254.169.254')).toMatch(/link-local/);
    expect(everything.refusal('10.0.0.1')).toMatch(/loopback or private/);
    expect(everything.refusal('93.184.215.14')).toBeUndefined();
    expect(() => testEgress({ allow: ['127.0.0.0/33'] })).toThrow(/127\.0\.0\.0\/33/);
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
