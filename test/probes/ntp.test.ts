import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireProgram } from '../support/local-servers.js';
import { loadProbeAndDriver, probeCheck, runCheck } from '../support/probe-runs.js';
import { startPrivateChrony } from '../support/udp-daemons.js';
import type { PrivateServer } from '../support/local-servers.js';

const chrony = requireProgram('/usr/sbin/chronyd');

const ntp = (target: string, config: Record<string, unknown> = {}, timeoutMs = 3000) =>
  ({ name: 'time', type: 'ntp', target, config, thresholds: { timeoutMs } }) as const;

describe.skipIf(!chrony.ok)('ntp probe against a private chronyd', () => {
  let server: PrivateServer;
  beforeAll(async () => {
    server = await startPrivateChrony();
  });
  afterAll(() => server?.stop());

  it('is up with the stratum, offset and dispersion within the limits', async () => {
    const result = await runCheck(probeCheck(ntp(`127.0.0.1:${server.port}`, { maxStratum: 8, maxOffsetMs: 100 })));
    expect(result.status, result.message).toBe('up');
    expect(result.message).toMatch(/^stratum 8, offset -?\d+ ms, root dispersion \d+ ms$/);
  });

  it('is down when the stratum is above the limit', async () => {
    expect(await runCheck(probeCheck(ntp(`127.0.0.1:${server.port}`)))).toMatchObject({ status: 'down', message: 'stratum 8, above 5' });
  });
});

describe('ntp probe against a protocol-level fake NTP server, refused and timeout', () => {
  let fake: Socket;
  let silent: Socket;
  let port: number;
  let silentPort: number;
  beforeAll(async () => {
    await loadProbeAndDriver('ntp'); // loaded before any clock starts
    // Answers like a synchronized stratum-2 server whose clock is 5 s ahead.
    fake = createSocket('udp4');
    fake.on('message', (request, peer) => {
      const reply = Buffer.alloc(48);
      reply[0] = (0 << 6) | (4 << 3) | 4;
      reply[1] = 2;
      reply.writeUInt32BE(65_536 / 100, 8); // 10 ms root dispersion
      request.copy(reply, 24, 40, 48);
      const ahead = Date.now() + 5000;
      const seconds = Math.floor(ahead / 1000) + 2_208_988_800;
      const fraction = Math.round(((ahead % 1000) / 1000) * 2 ** 32) >>> 0;
      for (const offset of [32, 40]) {
        reply.writeUInt32BE(seconds, offset);
        reply.writeUInt32BE(fraction, offset + 4);
      }
      fake.send(reply, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => fake.bind(0, '127.0.0.1', resolve));
    port = fake.address().port;
    silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    silentPort = silent.address().port;
  });
  afterAll(() => {
    fake.close();
    silent.close();
  });

  it('measures the offset: down beyond maxOffsetMs, up within it', async () => {
    const far = await runCheck(probeCheck(ntp(`127.0.0.1:${port}`)));
    expect(far.status).toBe('down');
    expect(far.message).toMatch(/^clock offset 50\d\d ms, beyond ±1000 ms$/);
    const near = await runCheck(probeCheck(ntp(`127.0.0.1:${port}`, { maxOffsetMs: 6000 })));
    expect(near).toMatchObject({ status: 'up' });
    expect(near.message).toMatch(/^stratum 2, offset 50\d\d ms, root dispersion 10 ms$/);
  });

  it('is down when the port is closed', async () => {
    const closed = await freePort();
    expect(await runCheck(probeCheck(ntp(`127.0.0.1:${closed}`)))).toMatchObject({ status: 'down', message: 'recvmsg ECONNREFUSED' });
  });

  it('ends at thresholds.timeoutMs when no answer comes, and closes its socket', async () => {
    const udpSockets = () => process.getActiveResourcesInfo().filter((name) => name === 'UDPWRAP').length;
    const before = udpSockets();
    const started = Date.now();
    const result = await runCheck(probeCheck(ntp(`127.0.0.1:${silentPort}`, {}, 400)));
    expect(result).toMatchObject({ status: 'down', message: 'timeout after 400 ms' });
    expect(Date.now() - started).toBeLessThan(900);
    await new Promise((resolve) => setImmediate(resolve));
    expect(udpSockets()).toBe(before);
  });
});
