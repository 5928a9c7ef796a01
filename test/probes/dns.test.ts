import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsmasq, type Dnsmasq } from './support/dnsmasq.js';
import { Resolver } from 'node:dns/promises';
import { checkOf, probe, testEgress, timedProbe } from './support/probe-run.js';

/** A UDP relay in front of the real server that holds each query `delayMs` before passing it on. */
async function startDelayingRelay(upstreamPort: number, delayMs: number): Promise<Socket> {
  const relay = createSocket('udp4');
  relay.on('message', (query, client) => {
    const upstream = createSocket('udp4');
    upstream.on('message', (answer) => {
      relay.send(answer, client.port, client.address);
      upstream.close();
    });
    setTimeout(() => upstream.send(query, upstreamPort, '127.0.0.1'), delayMs);
  });
  await new Promise<void>((resolve) => relay.bind(0, '127.0.0.1', resolve));
  return relay;
}

describe('dns probe against a real DNS server (dnsmasq)', () => {
  let dns: Dnsmasq;
  let resolver: string;
  beforeAll(async () => {
    dns = await startDnsmasq([
      '--local=/x.test/',
      '--host-record=www.x.test,127.0.0.10',
      '--host-record=v6.x.test,fd00::10',
      '--cname=alias.x.test,www.x.test',
      '--mx-host=x.test,mail.x.test,10',
      '--txt-record=x.test,v=spf1 -all',
      '--srv-host=_sip._tcp.x.test,sip.x.test,5060,10,20',
      '--txt-record=multi.x.test,first-part,second-part',
    ]);
    resolver = `127.0.0.1:${dns.port}`;
  });
  afterAll(() => dns?.stop());

  it('is up when the expected values are among the answers, for each record type', async () => {
    const cases: Array<[string, string, string[], string]> = [
      ['www.x.test', 'A', ['127.0.0.10'], 'NOERROR: 127.0.0.10'],
      ['v6.x.test', 'AAAA', ['fd00::10'], 'NOERROR: fd00::10'],
      ['x.test', 'MX', ['10 mail.x.test.'], 'NOERROR: 10 mail.x.test'],
      ['x.test', 'TXT', ['"v=spf1 -all"'], 'NOERROR: v=spf1 -all'],
      ['_sip._tcp.x.test', 'SRV', ['10 20 5060 sip.x.test'], 'NOERROR: 10 20 5060 sip.x.test'],
      ['alias.x.test', 'CNAME', ['www.x.test'], 'NOERROR: www.x.test'],
    ];
    for (const [name, recordType, expectedValues, message] of cases) {
      const result = await probe(checkOf('dns', name, { recordType, resolver, expectedValues }));
      expect(result, `${recordType} ${name}`).toMatchObject({ status: 'up', message });
    }
  });

  it('is down when an expected value is missing, saying what was answered', async () => {
    const result = await probe(checkOf('dns', 'www.x.test', { resolver, expectedValues: ['127.0.0.10', '10.0.0.1'] }));
    expect(result).toMatchObject({ status: 'down', message: 'expected 10.0.0.1 among the A answers, got 127.0.0.10' });
  });

  // Uptime Kuma's DNS conditions (server/monitor-types/dns.js): evaluated per answer, TXT string
  // by string, MX on the exchange name; exact and case-sensitive; no answers at all is down.
  it('answerConditions hold when one answer meets them all, value by value', async () => {
    const verdict = async (name: string, recordType: string, answerConditions: unknown[]) =>
      (await probe(checkOf('dns', name, { recordType, resolver, answerConditions }))).status;
    // Each string of a TXT record on its own: "first-part", "second-part".
    expect(await verdict('multi.x.test', 'TXT', [{ operator: 'equals', value: 'second-part' }])).toBe('up');
    expect(await verdict('multi.x.test', 'TXT', [{ operator: 'contains', value: 'first-partsecond' }])).toBe('down');
    expect(
      await verdict('multi.x.test', 'TXT', [
        { operator: 'starts-with', value: 'first' },
        { join: 'and', operator: 'ends-with', value: 'part' },
      ]),
    ).toBe('up');
    // contains is a substring test; equals is exact (case and trailing dot).
    expect(await verdict('x.test', 'TXT', [{ operator: 'contains', value: 'spf1' }])).toBe('up');
    expect(await verdict('www.x.test', 'A', [{ operator: 'contains', value: '127.0.0' }])).toBe('up');
    // MX: the exchange name, without priority.
    expect(await verdict('x.test', 'MX', [{ operator: 'equals', value: 'mail.x.test' }])).toBe('up');
    expect(await verdict('x.test', 'MX', [{ operator: 'equals', value: 'mail.x.test.' }])).toBe('down');
    expect(await verdict('x.test', 'MX', [{ operator: 'equals', value: 'MAIL.x.test' }])).toBe('down');
    expect(
      await verdict('x.test', 'MX', [
        { operator: 'equals', value: 'nope' },
        { join: 'or', operator: 'ends-with', value: '.test' },
      ]),
    ).toBe('up');
    const failed = await probe(checkOf('dns', 'x.test', { recordType: 'MX', resolver, answerConditions: [{ operator: 'equals', value: '10 mail.x.test' }] }));
    expect(failed).toMatchObject({ status: 'down', message: 'no MX answer meets equals "10 mail.x.test"; got 10 mail.x.test' });
  });

  it('requireAnswers fails a query answered without records, which is up by default', async () => {
    expect(await probe(checkOf('dns', 'www.x.test', { recordType: 'AAAA', resolver }))).toMatchObject({ status: 'up', message: 'NOERROR, no answers' });
    expect(await probe(checkOf('dns', 'www.x.test', { recordType: 'AAAA', resolver, requireAnswers: true }))).toMatchObject({
      status: 'down',
      message: 'NOERROR, no AAAA answers',
    });
  });

  it('compares the response code with expectedRcode', async () => {
    expect(await probe(checkOf('dns', 'nothing.x.test', { resolver }))).toMatchObject({ status: 'down', message: 'expected NOERROR, got NXDOMAIN' });
    expect(await probe(checkOf('dns', 'nothing.x.test', { resolver, expectedRcode: 'NXDOMAIN' }))).toMatchObject({
      status: 'up',
      message: 'NXDOMAIN, no answers',
    });
  });

  it('is degraded when the answer comes later than degradedResponseMs', async () => {
    const relay = await startDelayingRelay(dns.port, 150);
    try {
      const via = `127.0.0.1:${relay.address().port}`;
      const result = await probe(checkOf('dns', 'www.x.test', { resolver: via }, { degradedResponseMs: 50 }));
      expect(result.status).toBe('degraded');
      expect(result.latencyMs).toBeGreaterThanOrEqual(140);
    } finally {
      relay.close();
    }
  });

  it('ends a query that gets no answer at timeoutMs', async () => {
    // A UDP socket that reads queries and never answers.
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const result = await timedProbe(checkOf('dns', 'www.x.test', { resolver: `127.0.0.1:${silent.address().port}` }, { timeoutMs: 300 }));
      expect(result).toMatchObject({ status: 'down', message: 'timeout after 300 ms' });
      expect(result.wallMs).toBeLessThan(1_000);
    } finally {
      silent.close();
    }
  });

  it("under deny-private or an allow-list, asks the system's resolver only when the policy allows it", async () => {
    // Outside any allow-list of one documentation address, whatever this machine's resolver is.
    const outside = await probe(checkOf('dns', 'www.x.test'), testEgress({ allow: ['192.0.2.1/32'] }));
    expect(outside.status).toBe('down');
    expect(outside.message).toMatch(/^egress policy refuses \S+ \(outside the allowed networks\), the system resolver: name a resolver in the check$/);
    // Under deny-private, refused exactly when the policy refuses one of the system's resolvers.
    const strict = testEgress({ denyPrivate: true });
    const systemRefusal = new Resolver()
      .getServers()
      .map((server) => strict.refusal(server.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/:\d+$/, '')))
      .find(Boolean);
    // (Run only where it is refused: a query to an allowed system resolver would leave loopback.)
    if (systemRefusal) {
      expect(await probe(checkOf('dns', 'www.x.test'), strict)).toMatchObject({
        status: 'down',
        message: `${systemRefusal}, the system resolver: name a resolver in the check`,
      });
    }
    // A resolver named in the check is judged by itself.
    expect(await probe(checkOf('dns', 'www.x.test', { resolver }), testEgress({ allow: ['127.0.0.1/32'] }))).toMatchObject({ status: 'up' });
  });

  it('refuses a resolver the egress policy forbids', async () => {
    const result = await probe(checkOf('dns', 'www.x.test', { resolver: '169.254.169.254' }));
    expect(result).toMatchObject({ status: 'down', message: 'egress policy refuses 169.254.169.254 (link-local, metadata or unspecified address)' });
  });
});
