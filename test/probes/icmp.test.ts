import { readdirSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { probeAvailability } from '../../probes/registry.js';
import { checkOf, probe, timedProbe } from './support/probe-run.js';

// TEST-NET-3 (RFC 5737): never routed; a router may answer "unreachable", nothing else will.
const UNROUTED = '203.0.113.77';

/**
 * An unused address on the machine's own link: its echo requests wait for an ARP answer that
 * never comes, so ping stays silent until its deadline.
 */
function silentNeighbour(): string {
  const link = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal && entry.cidr && Number(entry.cidr.split('/')[1]) <= 24);
  if (!link) throw new Error('the test needs an IPv4 link of /24 or wider');
  const candidate = link.address.replace(/\.\d+$/, '.251');
  if (candidate === link.address) throw new Error('the machine itself has the address chosen as silent');
  return candidate;
}

/** How many ping processes aimed at `address` are running (read from /proc). */
function pingsRunningTo(address: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('ping') && argv.includes(address)) count++;
    } catch {
      // The process ended meanwhile.
    }
  }
  return count;
}

describe("icmp probe with Debian's ping against real addresses", () => {
  it('is runnable where ping is installed', async () => {
    expect(await probeAvailability('icmp')).toEqual({ runnable: true });
  });

  it('is up on replies from loopback, with the round-trip time as latency', async () => {
    const result = await probe(checkOf('icmp', '127.0.0.1', { count: 2, packetSize: 100 }));
    expect(result.status).toBe('up');
    expect(result.message).toMatch(/^2\/2 replies from 127\.0\.0\.1, rtt avg [\d.]+ ms$/);
    expect(result.latencyMs).toBeLessThan(50);
    expect((await probe(checkOf('icmp', 'localhost'))).status).toBe('up');
  });

  // No degraded case here: degraded needs a peer slower than 1 ms, and no local path is, without
  // traffic shaping (netem) that this kernel lacks. runProbe applies degradedResponseMs to the
  // latency this probe returns exactly as for the other types, which their tests show.

  it('ends a run without replies at timeoutMs and stops ping', async () => {
    const silent = silentNeighbour();
    const result = await timedProbe(checkOf('icmp', silent, { count: 3 }, { timeoutMs: 400 }));
    expect(result).toMatchObject({ status: 'down', message: 'timeout after 400 ms' });
    expect(result.wallMs).toBeLessThan(1_200);
    await expect.poll(() => pingsRunningTo(silent)).toBe(0);
  });

  it('is down saying why when the network answers unreachable, or ping gives up', async () => {
    const result = await probe(checkOf('icmp', UNROUTED, { count: 1 }, { timeoutMs: 2_500 }));
    expect(result).toMatchObject({ status: 'down' });
    expect(result.message).toMatch(/^(Destination .* Unreachable \(from \S+\)|no reply from 203\.0\.113\.77 \(\d+ sent\)|timeout after 2500 ms)$/);
  });
});
