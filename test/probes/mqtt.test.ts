import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureService, freePort, requireProgram, startPrivateMosquitto, type PrivateMosquitto } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const USER = 'monitor';
const PASSWORD = 'mqtt-probe-secret-4711';
const shared = await ensureService('mosquitto', 1883);
const binary = requireProgram('mosquitto');

const mqttCheck = (target: string, config: Record<string, unknown>, timeoutMs = 5000) =>
  ({ name: 'feed', type: 'mqtt', target, config, thresholds: { timeoutMs } }) as const;

/** Publishes one message with the real mosquitto as the go-between. */
async function publish(port: number, topic: string, message: string, retain: boolean, auth: { username?: string; password?: string } = {}) {
  const client = await mqtt.connectAsync({ host: '127.0.0.1', port, reconnectPeriod: 0, ...auth });
  await client.publishAsync(topic, message, { retain, qos: 1 });
  await client.endAsync();
}

describe.skipIf(!shared.ok)('mqtt probe against the local Mosquitto', () => {
  const topic = `svc-test/${randomBytes(4).toString('hex')}/status`;
  const textTopic = `${topic}/text`; // not matched by the wildcard of the first case
  beforeAll(async () => {
    await publish(1883, topic, JSON.stringify({ state: 'online', load: 3 }), true);
    await publish(1883, textTopic, 'online, load 3', true);
  });
  afterAll(async () => {
    // An empty retained message clears the retained one.
    await publish(1883, topic, '', true);
    await publish(1883, textTopic, '', true);
  });

  it('is up when the retained message has the keyword and passes the JSON queries', async () => {
    const check = mqttCheck('127.0.0.1', {
      topic: topic.replace('/status', '/+'),
      keyword: { value: 'ONLINE', caseSensitive: false },
      jsonQueries: [{ expression: 'load', operator: '<', expected: 5 }],
    });
    expect(await runCheck(probeCheck(check))).toMatchObject({ status: 'up', message: `message on ${topic}` });
  });

  it('is down, saying which assertion failed, when the message does not match', async () => {
    const keyword = await runCheck(probeCheck(mqttCheck('127.0.0.1:1883', { topic, keyword: { value: 'offline' } })));
    expect(keyword).toMatchObject({ status: 'down', message: `message on ${topic}: keyword "offline" not found in the message` });
    const json = await runCheck(probeCheck(mqttCheck('127.0.0.1:1883', { topic, jsonQueries: [{ expression: 'load', operator: '>', expected: 5 }] })));
    expect(json).toMatchObject({ status: 'down', message: `message on ${topic}: JSON load is 3, expected > "5"` });
    const notJson = await runCheck(
      probeCheck(mqttCheck('127.0.0.1:1883', { topic: textTopic, jsonQueries: [{ expression: 'load', operator: '>', expected: 5 }] })),
    );
    expect(notJson).toMatchObject({ status: 'down', message: `message on ${textTopic} is not JSON` });
  });

  it('waits for a message published after it subscribed, and times out when none comes', async () => {
    const live = `svc-test/${randomBytes(4).toString('hex')}/live`;
    const run = runCheck(probeCheck(mqttCheck('127.0.0.1:1883', { topic: live })));
    setTimeout(() => void publish(1883, live, 'hello', false), 300);
    expect(await run).toMatchObject({ status: 'up', message: `message on ${live}` });
    const silent = await runCheck(probeCheck(mqttCheck('127.0.0.1:1883', { topic: `${live}/none` }, 400)));
    expect(silent).toMatchObject({ status: 'down', message: 'timeout after 400 ms' });
  });
});

describe.skipIf(!binary.ok)('mqtt probe against a private Mosquitto with a password file', () => {
  let server: PrivateMosquitto;
  const topic = 'svc-test/secured';
  beforeAll(async () => {
    server = await startPrivateMosquitto(USER, PASSWORD);
    await publish(server.port, topic, 'ok', true, { username: USER, password: PASSWORD });
  });
  afterAll(() => server?.stop());

  it('is up with the password and down with a wrong one or none', async () => {
    const target = `127.0.0.1:${server.port}`;
    const good = await runCheck(probeCheck(mqttCheck(target, { topic, username: USER }), { password: PASSWORD }));
    expect(good).toMatchObject({ status: 'up', message: `message on ${topic}` });
    const wrong = await runCheck(probeCheck(mqttCheck(target, { topic, username: USER }), { password: `${PASSWORD}-wrong` }));
    expect(wrong).toMatchObject({ status: 'down', message: `user "${USER}" not authorized (wrong password or no access)` });
    const anonymous = await runCheck(probeCheck(mqttCheck(target, { topic })));
    expect(anonymous).toMatchObject({ status: 'down', message: 'not authorized (the broker may require a user name and password)' });
  });

  it('connects over WebSocket at the path, and over TLS', async () => {
    const websocket = await runCheck(
      probeCheck(mqttCheck(`127.0.0.1:${server.websocketPort}`, { topic, username: USER, websocketPath: '/mqtt' }), { password: PASSWORD }),
    );
    expect(websocket).toMatchObject({ status: 'up', message: `message on ${topic}` });
    const tls = { topic, username: USER, useTls: true };
    const accepted = await runCheck(probeCheck(mqttCheck(`127.0.0.1:${server.tlsPort}`, { ...tls, ignoreTlsErrors: true }), { password: PASSWORD }));
    expect(accepted).toMatchObject({ status: 'up', message: `message on ${topic}` });
    const checked = await runCheck(probeCheck(mqttCheck(`127.0.0.1:${server.tlsPort}`, tls), { password: PASSWORD }));
    expect(checked).toMatchObject({ status: 'down', message: `TLS handshake with 127.0.0.1:${server.tlsPort} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
  });

  it('connects with WebSocket over TLS, by name', async () => {
    const secure = { topic, username: USER, useTls: true, websocketPath: '/mqtt' };
    const accepted = await runCheck(
      probeCheck(mqttCheck(`localhost:${server.secureWebsocketPort}`, { ...secure, ignoreTlsErrors: true }), { password: PASSWORD }),
    );
    expect(accepted).toMatchObject({ status: 'up', message: `message on ${topic}` });
    const checked = await runCheck(probeCheck(mqttCheck(`localhost:${server.secureWebsocketPort}`, secure), { password: PASSWORD }));
    expect(checked).toMatchObject({
      status: 'down',
      message: `TLS handshake with localhost:${server.secureWebsocketPort} failed: DEPTH_ZERO_SELF_SIGNED_CERT`,
    });
  });
});

describe('mqtt probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when nothing listens', async () => {
    const port = await freePort();
    expect(await runCheck(probeCheck(mqttCheck(`127.0.0.1:${port}`, { topic: 'x' })))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against a broker that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(mqttCheck(`127.0.0.1:${listener.port}`, { topic: 'x' }, 500)), listener);
  });
});
