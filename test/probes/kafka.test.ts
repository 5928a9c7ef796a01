import { connect } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKafkaFake, type KafkaFake } from '../support/fakes/kafka-fake.js';
import { makeCertificates, type KeyPair } from './support/certificates.js';
import { freePort } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const USER = 'monitor';
const PASSWORD = 'kafka-probe-secret-4711';

const kafka = (target: string, config: Record<string, unknown>, timeoutMs = 5000) =>
  ({ name: 'events', type: 'kafka', target, config, thresholds: { timeoutMs } }) as const;

// kafkajs's own protocol encoders and decoders (an implementation independent of the fake's),
// for requests sent on a raw socket.
type KafkajsApi = (args: object) => { request: object; response: { decode(payload: Buffer): Promise<unknown> } };
const kafkajs = createRequire(import.meta.url);
const produce = (version: number, args: object) => (kafkajs('kafkajs/src/protocol/requests/produce').protocol({ version }) as KafkajsApi)(args);
const metadata = (version: number, args: object) => (kafkajs('kafkajs/src/protocol/requests/metadata').protocol({ version }) as KafkajsApi)(args);
const frame = kafkajs('kafkajs/src/protocol/request') as (args: object) => Promise<{ buffer: Buffer }>;

/** Sends one request and reads its whole response (size first), or nothing when the broker closes. */
async function exchange(port: number, request: object, bytes: (encoded: Buffer) => Buffer = (b) => b): Promise<Buffer> {
  const socket = connect(port, '127.0.0.1');
  socket.write(bytes((await frame({ correlationId: 7, clientId: 'test', request })).buffer));
  try {
    return await new Promise<Buffer>((resolve) => {
      let received = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.length >= 4 && received.length >= 4 + received.readInt32BE(0)) resolve(received);
      });
      socket.once('close', () => resolve(received));
    });
  } finally {
    socket.destroy();
  }
}

/** The response body: after its size and correlation id. */
const body = (reply: Buffer) => reply.subarray(8);

// The fake serves what an Apache Kafka 4 broker serves (KIP-896): Produce from v3 (record
// batches of message format v2), Metadata 0-8, SaslHandshake v1 only.
describe('kafka probe against a protocol-level fake broker with the versions of Kafka 4 (ApiVersions, Metadata, Produce)', () => {
  let open: KafkaFake;
  beforeAll(async () => {
    open = await startKafkaFake({ topics: ['monitoring'] });
  });
  afterAll(() => open.close());

  it('is up when the broker acknowledges the message, which arrives intact in a v2 record batch', async () => {
    const message = 'hello from svc, ünïcode ✓';
    const result = await runCheck(probeCheck(kafka(`127.0.0.1:${open.port}`, { topic: 'monitoring', message })));
    expect(result).toMatchObject({ status: 'up', message: 'produced to monitoring partition 0' });
    expect(open.produced).toHaveLength(1);
    expect(open.produced[0]).toMatchObject({ topic: 'monitoring', partition: 0, key: null });
    expect(open.produced[0].value?.toString('utf8')).toBe(message);
    // kafkajs takes the highest version both sides have: Produce v7 and Metadata v6 are its highest.
    expect(open.requests).toEqual(expect.arrayContaining(['ApiVersions v2', 'Metadata v6', 'Produce v7']));
    expect(open.refusals).toEqual([]);
  });

  it('is down when the topic does not exist', async () => {
    const result = await runCheck(probeCheck(kafka(`127.0.0.1:${open.port}`, { topic: 'missing' })));
    expect(result).toMatchObject({ status: 'down', message: 'unknown topic (and automatic topic creation is off)' });
  });
});

describe('kafka probe against a fake broker that names Produce from v3 only (ProduceRequest.json of Kafka 4: validVersions 3-12)', () => {
  let strict: KafkaFake;
  beforeAll(async () => {
    strict = await startKafkaFake({ topics: ['monitoring'], advertisedProduceMin: 3 });
  });
  afterAll(() => strict.close());

  it('is up: kafkajs negotiates a version the broker accepts', async () => {
    const result = await runCheck(probeCheck(kafka(`127.0.0.1:${strict.port}`, { topic: 'monitoring', message: 'strict' })));
    expect(result).toMatchObject({ status: 'up', message: 'produced to monitoring partition 0' });
    expect(strict.produced.map((m) => [m.version, m.value?.toString()])).toEqual([[7, 'strict']]);
    expect(strict.refusals).toEqual([]);
  });
});

describe('kafka fake: decoding of the record batch is real', () => {
  let broker: KafkaFake;
  beforeAll(async () => {
    broker = await startKafkaFake({ topics: ['monitoring'] });
  });
  afterAll(() => broker.close());

  async function send(version: 2 | 3, bytes: (encoded: Buffer) => Buffer = (b) => b): Promise<Buffer> {
    const topicData = [{ topic: 'monitoring', partitions: [{ partition: 0, messages: [{ value: 'intact?' }] }] }];
    return exchange(broker.port, produce(version, { acks: -1, timeout: 1000, topicData }).request, bytes);
  }
  /** Produce v2/v3 response: size, correlation id, [topic [partition, error_code, ...]]. */
  const errorCodeOf = (reply: Buffer) => reply.readInt16BE(4 + 4 + 4 + 2 + 'monitoring'.length + 4 + 4);

  it('acknowledges a well-formed batch and refuses one whose CRC-32C does not match with CORRUPT_MESSAGE', async () => {
    expect(errorCodeOf(await send(3))).toBe(0);
    expect(broker.produced.map((m) => m.value?.toString())).toEqual(['intact?']);
    const flipped = await send(3, (b) => {
      const copy = Buffer.from(b);
      copy[copy.indexOf('intact?') + 1] ^= 0x01; // one bit of the value, covered by the CRC
      return copy;
    });
    expect(errorCodeOf(flipped)).toBe(2); // CORRUPT_MESSAGE
    expect(broker.refusals).toEqual([expect.stringMatching(/^monitoring-0: CRC-32C mismatch: batch says 0x[0-9a-f]{8}, its bytes give 0x[0-9a-f]{8}$/)]);
    expect(broker.produced).toHaveLength(1);
  });

  it('refuses Produce v2 (message format v0/v1) with UNSUPPORTED_VERSION, as Kafka 4 does', async () => {
    expect(errorCodeOf(await send(2))).toBe(35);
    expect(broker.refusals).toContain('Produce v2 refused: Kafka 4 accepts v3 and later (KIP-896)');
    expect(broker.produced).toHaveLength(1);
  });
});

describe('kafka fake: each Metadata and Produce version it names reads right with kafkajs decoders', () => {
  let broker: KafkaFake;
  beforeAll(async () => {
    broker = await startKafkaFake({ topics: ['monitoring'] });
  });
  afterAll(() => broker.close());

  it.each([0, 1, 2, 3, 4, 5, 6])('Metadata v%i', async (version) => {
    const { request, response } = metadata(version, { topics: ['monitoring', 'missing'], allowAutoTopicCreation: false });
    const decoded = (await response.decode(body(await exchange(broker.port, request)))) as {
      brokers: Array<{ nodeId: number; host: string; port: number }>;
      topicMetadata: Array<{ topicErrorCode: number; topic: string; partitionMetadata: Array<{ partitionId: number; leader: number; isr: number[] }> }>;
    };
    expect(decoded.brokers).toEqual([expect.objectContaining({ nodeId: 1, host: '127.0.0.1', port: broker.port })]);
    expect(decoded.topicMetadata.map((t) => [t.topic, t.topicErrorCode, t.partitionMetadata.length])).toEqual([
      ['monitoring', 0, 1],
      ['missing', 3, 0],
    ]);
    expect(decoded.topicMetadata[0].partitionMetadata[0]).toMatchObject({ partitionId: 0, leader: 1, isr: [1] });
  });

  it.each([3, 4, 5, 6, 7])('Produce v%i, its record arriving intact', async (version) => {
    const value = `produced at v${version}`;
    const topicData = [{ topic: 'monitoring', partitions: [{ partition: 0, messages: [{ key: 'k', value }] }] }];
    const { request, response } = produce(version, { acks: -1, timeout: 1000, topicData });
    const decoded = (await response.decode(body(await exchange(broker.port, request)))) as {
      topics: Array<{ topicName: string; partitions: Array<{ partition: number; errorCode: number; baseOffset: string }> }>;
    };
    expect(decoded.topics).toEqual([{ topicName: 'monitoring', partitions: [expect.objectContaining({ partition: 0, errorCode: 0 })] }]);
    const last = broker.produced.at(-1);
    expect([last?.version, last?.key?.toString(), last?.value?.toString()]).toEqual([version, 'k', value]);
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
    expect(secured.requests).toContain('SaslHandshake v1'); // Kafka 4 has no SaslHandshake v0 (KIP-896)
    const wrong = await runCheck(withPassword(`${PASSWORD}-wrong`));
    expect(wrong).toMatchObject({ status: 'down', message: `authentication failed for user "${USER}"` });
  });
});

describe('kafka probe against a fake broker behind a TLS listener (useTls)', () => {
  let secure: KafkaFake;
  let selfSigned: KeyPair;
  beforeAll(async () => {
    selfSigned = makeCertificates().selfSigned;
    secure = await startKafkaFake({ topics: ['monitoring'], tls: selfSigned });
  });
  afterAll(() => secure.close());

  it('is up when the certificate is accepted, and down with the reason when it is not trusted', async () => {
    const target = `127.0.0.1:${secure.port}`;
    const accepted = await runCheck(probeCheck(kafka(target, { topic: 'monitoring', message: 'over tls', useTls: true, ignoreTlsErrors: true })));
    expect(accepted).toMatchObject({ status: 'up', message: 'produced to monitoring partition 0' });
    expect(secure.produced.map((m) => m.value?.toString())).toEqual(['over tls']);
    const untrusted = await runCheck(probeCheck(kafka(target, { topic: 'monitoring', useTls: true })));
    expect(untrusted).toMatchObject({ status: 'down', message: `TLS handshake with ${target} failed: DEPTH_ZERO_SELF_SIGNED_CERT` });
    expect(secure.produced).toHaveLength(1);
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
