import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { answerMetadata, answerProduce, PRODUCE_BASELINE } from './kafka-fake-apis.js';
import { KafkaReader, KafkaWriter } from './kafka-wire.js';

// A protocol-level Kafka fake: one broker speaking the request/response framing
// (https://kafka.apache.org/protocol#protocol_common) with the API versions an Apache Kafka 4
// broker serves for ApiVersions, Metadata, Produce and SASL/PLAIN (SaslHandshake,
// SaslAuthenticate) against one user, in plaintext or behind a TLS listener (SSL / SASL_SSL).
// Produce requests are decoded down to each record of their v2 record batches, CRC-32C checked,
// so a test sees the very message the probe sent. Enough for kafkajs to connect a producer,
// sign in and have a message acknowledged; not a broker.

const API = { produce: 0, metadata: 3, saslHandshake: 17, apiVersions: 18, saslAuthenticate: 36 } as const;
const ERROR = { none: 0, unsupportedVersion: 35, saslAuthenticationFailed: 58 } as const;

export interface ProducedMessage {
  topic: string;
  partition: number;
  /** The Produce request version the client used. */
  version: number;
  key: Buffer | null;
  value: Buffer | null;
}

export interface KafkaFake {
  port: number;
  /** Every record acknowledged, decoded from its batch. */
  produced: ProducedMessage[];
  /** Requests answered, as `Name vN`, in order (e.g. `Produce v7`). */
  requests: string[];
  /** Why record sets were refused with CORRUPT_MESSAGE, or requests with UNSUPPORTED_VERSION. */
  refusals: string[];
  close(): Promise<void>;
}

export interface KafkaFakeOptions {
  topics: string[];
  /** When set, every connection must sign in with SASL/PLAIN as this user first. */
  user?: { username: string; password: string };
  /** A TLS listener with this certificate instead of a plaintext one. */
  tls?: { cert: string; key: string };
  /**
   * The lowest Produce version ApiVersions names. A Kafka 4 broker names 0 although it refuses
   * v0-v2 (KAFKA-18659: `ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION`, kept so that older
   * librdkafka releases still connect); 3 is what `ProduceRequest.json` (validVersions 3-12) says.
   */
  advertisedProduceMin?: 0 | 3;
}

/**
 * The versions served, each the overlap of what Apache Kafka 4.0 accepts (its
 * clients/src/main/resources/common/message/*.json after KIP-896) and what this fake encodes
 * (the non-flexible versions, before tagged fields):
 * - ApiVersions: Kafka 4 has 0-4; 0-2 here.
 * - Metadata: Kafka 4 has 0-13 (v0-v3 were removed, then restored for kafka-python by
 *   KAFKA-18648, apache/kafka#18716); 0-6 here.
 * - Produce: Kafka 4 has 3-12 (KIP-896 removed v0-v2); 3-7 here.
 * - SaslHandshake: Kafka 4 has 1 only (KIP-896 removed v0); SaslAuthenticate: 0-2, 0-1 here.
 * The tops are the highest versions kafkajs decodes, so its decoders check every answer.
 */
const SERVED: Record<number, { name: string; min: number; max: number }> = {
  [API.produce]: { name: 'Produce', min: PRODUCE_BASELINE, max: 7 },
  [API.metadata]: { name: 'Metadata', min: 0, max: 6 },
  [API.saslHandshake]: { name: 'SaslHandshake', min: 1, max: 1 },
  [API.apiVersions]: { name: 'ApiVersions', min: 0, max: 2 },
  [API.saslAuthenticate]: { name: 'SaslAuthenticate', min: 0, max: 1 },
};

/** Starts the fake broker on a free loopback port; its metadata names itself as the only broker. */
export async function startKafkaFake(options: KafkaFakeOptions): Promise<KafkaFake> {
  const fake: KafkaFake = { port: 0, produced: [], requests: [], refusals: [], close: async () => {} };
  const sockets = new Set<Socket>();

  /** The response body; `null` for none (Produce with acks 0), undefined to drop the connection. */
  function answer(apiKey: number, version: number, body: KafkaReader, session: { signedIn: boolean }): KafkaWriter | null | undefined {
    const served = SERVED[apiKey];
    const out = new KafkaWriter();
    if (apiKey === API.apiVersions) {
      // ApiVersions answers even an unknown version, in its v0 shape (KIP-511), so the client can retry lower.
      out.int16(version > served.max ? ERROR.unsupportedVersion : ERROR.none);
      out.array(Object.entries(SERVED), ([key, { min, max }]) => {
        const advertisedMin = Number(key) === API.produce ? (options.advertisedProduceMin ?? 0) : min;
        out.int16(Number(key)).int16(advertisedMin).int16(max);
      });
      if (version >= 1 && version <= served.max) out.int32(0); // throttle_time_ms
      return out;
    }
    if (!served || version > served.max || (version < served.min && apiKey !== API.produce)) {
      fake.refusals.push(`${served?.name ?? `api ${apiKey}`} v${version} is not served`);
      return undefined; // a real broker closes a connection whose request it cannot parse
    }
    if (apiKey === API.saslHandshake) {
      const mechanism = body.string();
      return out.int16(mechanism === 'PLAIN' ? ERROR.none : 33).array(['PLAIN'], (m) => out.string(m));
    }
    if (apiKey === API.saslAuthenticate) {
      // PLAIN (RFC 4616): authzid NUL authcid NUL password
      const [, username, password] = (body.bytes() ?? Buffer.alloc(0)).toString('utf8').split('\0');
      const ok = username === options.user?.username && password === options.user?.password;
      session.signedIn = ok;
      out.int16(ok ? ERROR.none : ERROR.saslAuthenticationFailed).string(ok ? null : 'Authentication failed: Invalid username or password');
      out.bytes(Buffer.alloc(0));
      if (version >= 1) out.int64(0n); // session_lifetime_ms
      return out;
    }
    if (options.user && !session.signedIn) return undefined; // a real broker drops the connection
    if (apiKey === API.metadata) return answerMetadata(version, body, out, { topics: options.topics, port: fake.port });
    return answerProduce(version, body, out, { topics: options.topics, produced: fake.produced, refusals: fake.refusals });
  }

  function serve(socket: Socket) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const session = { signedIn: false };
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const request = new KafkaReader(pending.subarray(4, 4 + pending.readInt32BE(0)));
        pending = pending.subarray(4 + pending.readInt32BE(0));
        // Request header v1 (https://kafka.apache.org/protocol#protocol_messages): the
        // non-flexible versions served here all use it.
        const apiKey = request.int16();
        const version = request.int16();
        const correlationId = request.int32();
        request.string(); // client id
        let response: KafkaWriter | null | undefined;
        try {
          response = answer(apiKey, version, request, session);
        } catch (error) {
          fake.refusals.push(`unreadable ${SERVED[apiKey]?.name ?? apiKey} v${version}: ${(error as Error).message}`);
          response = undefined;
        }
        if (response === undefined) return void socket.destroy();
        fake.requests.push(`${SERVED[apiKey].name} v${version}`);
        if (response === null) continue;
        const payload = Buffer.concat([new KafkaWriter().int32(correlationId).done(), response.done()]);
        socket.write(Buffer.concat([new KafkaWriter().int32(payload.length).done(), payload]));
      }
    });
  }

  const server: Server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, serve) : createServer(serve);
  server.on('tlsClientError', () => {}); // a client refusing the certificate ends its handshake
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return fake;
}
