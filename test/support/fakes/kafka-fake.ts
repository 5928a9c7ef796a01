import { createServer, type AddressInfo, type Socket } from 'node:net';

// A protocol-level Kafka fake: one broker speaking the request/response framing with the
// oldest versions of ApiVersions, Metadata and Produce, plus SASL/PLAIN (SaslHandshake v1 and
// SaslAuthenticate v0) against one user. Enough for kafkajs to connect a producer, sign in and
// have a message acknowledged; it keeps what it was sent, and stores nothing else.

const API = { produce: 0, metadata: 3, saslHandshake: 17, apiVersions: 18, saslAuthenticate: 36 } as const;
const ERROR = { none: 0, unknownTopic: 3, unsupportedVersion: 35, saslAuthenticationFailed: 58 } as const;

export interface KafkaFake {
  port: number;
  /** Messages acknowledged, as raw record sets per topic. */
  produced: Array<{ topic: string; partition: number; bytes: number }>;
  close(): Promise<void>;
}

export interface KafkaFakeOptions {
  topics: string[];
  /** When set, every connection must sign in with SASL/PLAIN as this user first. */
  user?: { username: string; password: string };
}

class Writer {
  private parts: Buffer[] = [];
  int16(value: number) {
    const b = Buffer.alloc(2);
    b.writeInt16BE(value);
    this.parts.push(b);
    return this;
  }
  int32(value: number) {
    const b = Buffer.alloc(4);
    b.writeInt32BE(value);
    this.parts.push(b);
    return this;
  }
  int64(value: bigint) {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(value);
    this.parts.push(b);
    return this;
  }
  string(value: string | null) {
    if (value === null) return this.int16(-1);
    const bytes = Buffer.from(value);
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  bytes(value: Buffer) {
    this.int32(value.length);
    this.parts.push(value);
    return this;
  }
  array<T>(items: T[], write: (item: T) => void) {
    this.int32(items.length);
    items.forEach(write);
    return this;
  }
  done() {
    return Buffer.concat(this.parts);
  }
}

class Reader {
  constructor(
    private buffer: Buffer,
    private offset = 0,
  ) {}
  int16() {
    const v = this.buffer.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  int32() {
    const v = this.buffer.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  string() {
    const length = this.int16();
    if (length < 0) return null;
    const value = this.buffer.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
  bytes() {
    const length = this.int32();
    const v = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return v;
  }
  array<T>(read: () => T): T[] {
    const n = this.int32();
    return Array.from({ length: Math.max(n, 0) }, read);
  }
}

/** Starts the fake broker on a free loopback port; its metadata names itself as the only broker. */
export async function startKafkaFake(options: KafkaFakeOptions): Promise<KafkaFake> {
  const produced: KafkaFake['produced'] = [];
  const sockets = new Set<Socket>();
  let port = 0;

  function answer(apiKey: number, version: number, body: Reader, session: { signedIn: boolean }): Writer | undefined {
    const out = new Writer();
    if (apiKey === API.apiVersions) {
      const supported: Array<[number, number, number]> = [
        [API.produce, 0, 0],
        [API.metadata, 0, 0],
        [API.saslHandshake, 0, 1],
        [API.apiVersions, 0, 2],
        [API.saslAuthenticate, 0, 0],
      ];
      out.int16(version > 2 ? ERROR.unsupportedVersion : ERROR.none).array(supported, ([key, min, max]) => out.int16(key).int16(min).int16(max));
      if (version >= 1) out.int32(0); // throttle_time_ms
      return out;
    }
    if (apiKey === API.saslHandshake) {
      const mechanism = body.string();
      return out.int16(mechanism === 'PLAIN' ? ERROR.none : 33).array(['PLAIN'], (m) => out.string(m));
    }
    if (apiKey === API.saslAuthenticate) {
      // PLAIN: authzid \0 authcid \0 password
      const [, username, password] = body.bytes().toString('utf8').split('\0');
      const ok = username === options.user?.username && password === options.user?.password;
      session.signedIn = ok;
      return ok
        ? out.int16(ERROR.none).string(null).bytes(Buffer.alloc(0))
        : out.int16(ERROR.saslAuthenticationFailed).string('Authentication failed: Invalid username or password').bytes(Buffer.alloc(0));
    }
    if (options.user && !session.signedIn) return undefined; // a real broker drops the connection
    if (apiKey === API.metadata) {
      const requested = body.array(() => body.string() ?? '');
      const topics = requested.length === 0 ? options.topics : requested;
      out.array([{ id: 1, host: '127.0.0.1', port }], (b) => out.int32(b.id).string(b.host).int32(b.port));
      return out.array(topics, (topic) => {
        const known = options.topics.includes(topic);
        out.int16(known ? ERROR.none : ERROR.unknownTopic).string(topic);
        out.array(known ? [0] : [], (partition) =>
          out
            .int16(ERROR.none)
            .int32(partition)
            .int32(1)
            .array([1], (r) => out.int32(r))
            .array([1], (r) => out.int32(r)),
        );
      });
    }
    if (apiKey === API.produce) {
      body.int16(); // acks
      body.int32(); // timeout
      const topics = body.array(() => ({ topic: body.string() ?? '', partitions: body.array(() => ({ partition: body.int32(), records: body.bytes() })) }));
      return out.array(topics, ({ topic, partitions }) => {
        out.string(topic).array(partitions, ({ partition, records }) => {
          const known = options.topics.includes(topic);
          if (known) produced.push({ topic, partition, bytes: records.length });
          out
            .int32(partition)
            .int16(known ? ERROR.none : ERROR.unknownTopic)
            .int64(BigInt(produced.length - 1));
        });
      });
    }
    return undefined;
  }

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const session = { signedIn: false };
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const request = new Reader(pending.subarray(4, 4 + pending.readInt32BE(0)));
        pending = pending.subarray(4 + pending.readInt32BE(0));
        const apiKey = request.int16();
        const version = request.int16();
        const correlationId = request.int32();
        request.string(); // client id
        const response = answer(apiKey, version, request, session);
        if (!response) {
          socket.destroy();
          return;
        }
        const payload = Buffer.concat([new Writer().int32(correlationId).done(), response.done()]);
        socket.write(Buffer.concat([new Writer().int32(payload.length).done(), payload]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    produced,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
