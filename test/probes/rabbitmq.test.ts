import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRabbitmqManagement, freePort } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const server = await ensureRabbitmqManagement();
const API = 'http://127.0.0.1:15672/';

const rabbit = (target: string, config: Record<string, unknown>, timeoutMs = 5000) =>
  ({ name: 'broker', type: 'rabbitmq', target, config, thresholds: { timeoutMs } }) as const;

const rabbitmqctl = (...args: string[]) => {
  const run = spawnSync('rabbitmqctl', args, { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`rabbitmqctl ${args.join(' ')}: ${run.stderr}`);
};

describe.skipIf(!server.ok)('rabbitmq probe against the local RabbitMQ management API', () => {
  it('is up when the node answers healthy', async () => {
    const result = await runCheck(probeCheck(rabbit(API, { username: 'guest' }), { password: 'guest' }), ['guest']);
    expect(result).toMatchObject({ status: 'up', message: '127.0.0.1:15672 healthy' });
  });

  it('tries the additional nodes when the target does not answer', async () => {
    const port = await freePort();
    const result = await runCheck(probeCheck(rabbit(`http://127.0.0.1:${port}/`, { username: 'guest', additionalNodes: [API] }), { password: 'guest' }));
    expect(result).toMatchObject({ status: 'up', message: '127.0.0.1:15672 healthy' });
  });

  it('is down with a wrong password or without credentials', async () => {
    const wrong = await runCheck(probeCheck(rabbit(API, { username: 'guest' }), { password: 'not-the-password' }));
    expect(wrong).toMatchObject({ status: 'down', message: 'authentication failed for user "guest"' });
    const anonymous = await runCheck(probeCheck(rabbit(API, {})));
    expect(anonymous).toMatchObject({ status: 'down', message: 'the management API requires a user name and password' });
  });

  it('is down with the alarm as reason while the node has a resource alarm', async () => {
    // A disk-free limit far above the free space raises the disk alarm within a few seconds.
    rabbitmqctl('set_disk_free_limit', String(10 ** 18));
    try {
      await expect
        .poll(async () => (await runCheck(probeCheck(rabbit(API, { username: 'guest' }), { password: 'guest' }))).message, { timeout: 20_000, interval: 500 })
        .toMatch(/^unhealthy: disk space alarm on rabbit@\S+$/);
    } finally {
      rabbitmqctl('set_disk_free_limit', '50000000'); // RabbitMQ's default
    }
  }, 40_000);
});

describe('rabbitmq probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens, naming each node', async () => {
    const [one, two] = [await freePort(), await freePort()];
    const single = await runCheck(probeCheck(rabbit(`http://127.0.0.1:${one}/`, { username: 'guest' })));
    expect(single).toMatchObject({ status: 'down', message: `connect ECONNREFUSED 127.0.0.1:${one}` });
    const both = await runCheck(probeCheck(rabbit(`http://127.0.0.1:${one}/`, { additionalNodes: [`http://localhost:${two}/`] })));
    expect(both.message).toMatch(new RegExp(`^127.0.0.1:${one}: connect ECONNREFUSED 127.0.0.1:${one}; localhost:${two}: connect ECONNREFUSED `));
  });

  it('is down, saying so, when the egress policy refuses a node', async () => {
    const result = await runCheck(probeCheck(rabbit('http://169.254.169.254/', { username: 'guest' })));
    expect(result).toMatchObject({ status: 'down', message: 'egress policy refuses 169.254.169.254 (link-local, metadata or unspecified address)' });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(rabbit(`http://127.0.0.1:${listener.port}/`, { username: 'guest' }, 500)), listener);
  });
});
