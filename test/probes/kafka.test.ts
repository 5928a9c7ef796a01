import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKafkaFake, type KafkaFake } from '../support/fakes/kafka-fake.js';
import { freePort } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const USER = 'monitor';
const PASSWORD = 'kafka-probe-secret-4711';

const kafka = (target: string, config: Record<string, unknown>, timeoutMs = 5000) =>
  ({ name: 'events', type: 'kafka', target, config, thresholds: { timeoutMs } }) as const;

describe('kafka probe against a protocol-level fake broker (ApiVersions, Metadata, Produce)', () => {
  let open: KafkaFake;
  beforeAll(async () => {
    open = await startKafkaFake({ topics: ['monitoring'] });
  });
  afterAll(() => open.close());

  it('is up when the broker acknowledges the message', async () => {
    const result = await runCheck(probeCheck(kafka(`127.0.0.1:${open.port}`, { topic: 'monitoring', message: 'hello' })));
    expect(result).toMatchObject({ status: 'up', message: 'produced to monitoring partition 0' });
    expect(open.produced).toEqual([{ topic: 'monitoring', partition: 0, bytes: expect.any(Number) }]);
  });

  it('is down when the topic does not exist', async () => {
    const result = await runCheck(probeCheck(kafka(`127.0.0.1:${open.port}`, { topic: 'missing' })));
    expect(result).toMatchObject({ status: 'down', message: 'unknown topic (and automatic topic creation is off)' });
  });
});

describe('kafka probe against a protocol-level fake broker with SASL/PLAIN', () => {
  let secured: KafkaFake;
  beforeAll(async () => {
    secured = await startKafkaFake({ topics: ['monitoring'], user: { username: USER, password: PASSWORD } });
  });
  afterAll(() => secured.close());

  it('is up with the password and down with a wrong one', async () => {
    const target = `127.0.0.1:${secured.port}`;
    // The password sits beside the user name in `sasl`, as the runner hands it over.
    const withPassword = (password: string) => probeCheck(kafka(target, { topic: 'monitoring' }), { sasl: { mechanism: 'plain', username: USER, password } });
    expect(await runCheck(withPassword(PASSWORD))).toMatchObject({ status: 'up', message: 'produced to monitoring partition 0' });
    const wrong = await runCheck(withPassword(`${PASSWORD}-wrong`));
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
  });
});

describe('kafka probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(kafka(`127.0.0.1:${port}`, { topic: 'monitoring' })))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a broker that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(kafka(`127.0.0.1:${listener.port}`, { topic: 'monitoring' }, 500)), listener);
  });
});
