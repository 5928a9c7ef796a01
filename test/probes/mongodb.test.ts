import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMongoFake, type MongoFake } from '../support/fakes/mongodb-fake.js';
import { freePort } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const USER = 'monitor';
const PASSWORD = 'mongo-probe-secret-4711';

const mongo = (target: string, config: Record<string, unknown> = {}, timeoutMs = 5000) =>
  ({ name: 'mongo', type: 'mongodb', target, config, thresholds: { timeoutMs } }) as const;

describe('mongodb probe against a protocol-level fake (wire protocol, hello, SCRAM-SHA-256, commands)', () => {
  let fake: MongoFake;
  beforeAll(async () => {
    fake = await startMongoFake({ username: USER, password: PASSWORD });
  });
  afterAll(() => fake.close());

  it('is up when ping answers ok, with and without signing in', async () => {
    const target = `127.0.0.1:${fake.port}`;
    expect(await runCheck(probeCheck(mongo(target)))).toMatchObject({ status: 'up', message: 'ping ok' });
    const signedIn = await runCheck(probeCheck(mongo(target, { username: USER, database: 'catalogue', command: { serverStatus: 1 } }), { password: PASSWORD }));
    expect(signedIn).toMatchObject({ status: 'up', message: 'serverStatus ok' });
    expect(fake.commands).toContain('saslContinue');
  });

  it('is down with a wrong password, and with the server\'s words for an unknown command', async () => {
    const target = `127.0.0.1:${fake.port}`;
    const wrong = await runCheck(probeCheck(mongo(target, { username: USER }), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
    const unknown = await runCheck(probeCheck(mongo(target, { command: { noSuchThing: 1 } })));
    expect(unknown).toMatchObject({ status: 'down', message: "noSuchThing failed: no such command: 'noSuchThing'" });
  });
});

describe('mongodb probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(mongo(`127.0.0.1:${port}`)))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a server that never answers, and closes its sockets', async () => {
    await expectTimeoutTearsDown(probeCheck(mongo(`127.0.0.1:${listener.port}`, {}, 500)), listener);
  });
});
