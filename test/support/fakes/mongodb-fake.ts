import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { BSON, type Document } from 'mongodb';

// A protocol-level MongoDB fake: the wire protocol (OP_QUERY for the legacy handshake, OP_MSG
// for everything else), the hello handshake, SCRAM-SHA-256 sign-in against one user, and a few
// commands (ping, serverStatus, endSessions), in plaintext or with TLS from the first byte as
// mongod's `net.tls.mode: requireTLS` (https://www.mongodb.com/docs/manual/tutorial/configure-ssl/).
// Enough for the official driver to connect, sign in and run a command; not a database.

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

export interface MongoFakeOptions {
  /** Fields merged into the hello answer, given the fake's port (replica set members, say). */
  helloExtras?: (port: number) => Document;
  /** Accept TLS connections only, with this certificate. */
  tls?: { cert: string; key: string };
}

export interface MongoFake {
  port: number;
  /** Commands received, by name, in order (handshakes included). */
  commands: string[];
  close(): Promise<void>;
}

interface Conversation {
  clientFirstBare: string;
  serverFirst: string;
  nonce: string;
}

function cstring(buffer: Buffer, offset: number): [string, number] {
  const end = buffer.indexOf(0, offset);
  return [buffer.toString('utf8', offset, end), end + 1];
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const head = Buffer.alloc(16);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(responseTo, 8);
  head.writeInt32LE(opCode, 12);
  return head;
}

/** Starts the fake on a free loopback port with one SCRAM-SHA-256 user. */
export async function startMongoFake(user: { username: string; password: string }, options: MongoFakeOptions = {}): Promise<MongoFake> {
  const helloExtras = options.helloExtras ?? (() => ({}));
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  const salt = randomBytes(16);
  const iterations = 4096;
  const saltedPassword = pbkdf2Sync(user.password, salt, iterations, 32, 'sha256');
  const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  let nextId = 1;

  const conversations = new Map<number, Conversation>();

  function respond(command: Document): Document {
    const name = Object.keys(command)[0] ?? '';
    commands.push(name);
    switch (name.toLowerCase()) {
      case 'hello':
      case 'ismaster':
        return {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId: nextId++,
          minWireVersion: 0,
          maxWireVersion: 25, // MongoDB 8.0
          readOnly: false,
          saslSupportedMechs: ['SCRAM-SHA-256'],
          ok: 1,
          ...helloExtras(port),
        };
      case 'ping':
      case 'endsessions':
        return { ok: 1 };
      case 'serverstatus':
        return { host: 'fake', version: '8.0.4', uptime: 42, ok: 1 };
      case 'saslstart': {
        if (command.mechanism !== 'SCRAM-SHA-256') return authFailed();
        const clientFirst = Buffer.from(command.payload.buffer).toString('utf8');
        const clientFirstBare = clientFirst.replace(/^n,,/, '');
        const username = /(?:^|,)n=([^,]*)/.exec(clientFirstBare)?.[1];
        const clientNonce = /(?:^|,)r=([^,]*)/.exec(clientFirstBare)?.[1] ?? '';
        if (username !== user.username) return authFailed();
        const nonce = clientNonce + randomBytes(18).toString('base64');
        const serverFirst = `r=${nonce},s=${salt.toString('base64')},i=${iterations}`;
        const id = nextId++;
        conversations.set(id, { clientFirstBare, serverFirst, nonce });
        return { conversationId: id, done: false, payload: new BSON.Binary(Buffer.from(serverFirst)), ok: 1 };
      }
      case 'saslcontinue': {
        const conversation = conversations.get(command.conversationId);
        conversations.delete(command.conversationId);
        if (!conversation) return authFailed();
        const clientFinal = Buffer.from(command.payload.buffer).toString('utf8');
        const withoutProof = clientFinal.replace(/,p=[^,]*$/, '');
        const proof = Buffer.from(/,p=([^,]*)$/.exec(clientFinal)?.[1] ?? '', 'base64');
        if (!withoutProof.includes(`r=${conversation.nonce}`)) return authFailed();
        const authMessage = `${conversation.clientFirstBare},${conversation.serverFirst},${withoutProof}`;
        const clientKey = hmac(saltedPassword, 'Client Key');
        const storedKey = createHash('sha256').update(clientKey).digest();
        const signature = hmac(storedKey, authMessage);
        const expected = Buffer.from(clientKey.map((byte, i) => byte ^ signature[i]));
        if (proof.length !== expected.length || !timingSafeEqual(proof, expected)) return authFailed();
        const serverSignature = hmac(hmac(saltedPassword, 'Server Key'), authMessage).toString('base64');
        return { conversationId: command.conversationId, done: true, payload: new BSON.Binary(Buffer.from(`v=${serverSignature}`)), ok: 1 };
      }
      default:
        return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
    }
  }

  function authFailed(): Document {
    return { ok: 0, errmsg: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' };
  }

  function handle(message: Buffer, socket: Socket): void {
    const requestId = message.readInt32LE(4);
    const opCode = message.readInt32LE(12);
    if (opCode === OP_QUERY) {
      const [, afterName] = cstring(message, 20);
      const query = BSON.deserialize(message.subarray(afterName + 8), { promoteBuffers: false });
      // Since MongoDB 5.1 OP_QUERY carries the handshake only (hello / isMaster); every other
      // command must come as OP_MSG (https://www.mongodb.com/docs/manual/legacy-opcodes/).
      const name = Object.keys(query)[0] ?? '';
      const legacyHandshake = /^(hello|ismaster)$/i.test(name);
      const answer = legacyHandshake
        ? respond(query)
        : {
            ok: 0,
            errmsg: `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
            code: 352,
            codeName: 'UnsupportedOpQueryCommand',
          };
      const body = BSON.serialize(answer);
      const reply = Buffer.alloc(20);
      reply.writeInt32LE(1, 16); // numberReturned; responseFlags, cursorID and startingFrom stay 0
      socket.write(Buffer.concat([header(16 + 20 + body.length, nextId++, requestId, OP_REPLY), reply, body]));
    } else if (opCode === OP_MSG) {
      // flagBits (4 bytes), then sections; the driver sends the command as a kind-0 section first.
      let offset = 20;
      let command: Document = {};
      while (offset < message.length) {
        const kind = message[offset];
        const size = message.readInt32LE(offset + 1);
        if (kind === 0) command = BSON.deserialize(message.subarray(offset + 1, offset + 1 + size));
        offset += 1 + size;
      }
      const body = BSON.serialize(respond(command));
      const flagsAndKind = Buffer.alloc(5);
      socket.write(Buffer.concat([header(16 + 5 + body.length, nextId++, requestId, OP_MSG), flagsAndKind, body]));
    } else {
      socket.destroy();
    }
  }

  const serve = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        handle(pending.subarray(0, length), socket);
        pending = pending.subarray(length);
      }
    });
  };
  const server: Server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, serve) : createServer(serve);
  server.on('tlsClientError', () => {}); // a client refusing the certificate ends its handshake
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port: (server.address() as AddressInfo).port,
    commands,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
