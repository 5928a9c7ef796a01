import { createServer, type AddressInfo, type Socket } from 'node:net';

// A protocol-level SQL Server fake: TDS 7.4 packets, PRELOGIN (no encryption), LOGIN7 checked
// against one user (the password de-scrambled as the protocol defines), and SQL batches:
// SET statements, `SELECT <integer>` (one int row) and an error for anything else. Enough for
// tedious to connect, sign in and run a query; not a database.

const PACKET = { sqlBatch: 0x01, tabularResult: 0x04, login7: 0x10, prelogin: 0x12 } as const;
const TOKEN = { colMetadata: 0x81, error: 0xaa, loginAck: 0xad, row: 0xd1, envChange: 0xe3, done: 0xfd } as const;
const DONE = { final: 0x00, error: 0x02, count: 0x10 } as const;

export interface TdsFake {
  port: number;
  /** SQL batches received after sign-in. */
  batches: string[];
  close(): Promise<void>;
}

const ucs2 = (text: string) => Buffer.from(text, 'utf16le');

function bVarchar(text: string): Buffer {
  return Buffer.concat([Buffer.from([text.length]), ucs2(text)]);
}

function usVarchar(text: string): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16LE(text.length);
  return Buffer.concat([length, ucs2(text)]);
}

/** A token with a 2-byte length before its body. */
function sized(token: number, body: Buffer): Buffer {
  const head = Buffer.alloc(3);
  head.writeUInt8(token, 0);
  head.writeUInt16LE(body.length, 1);
  return Buffer.concat([head, body]);
}

function done(status: number, rows = 0): Buffer {
  const token = Buffer.alloc(13);
  token.writeUInt8(TOKEN.done, 0);
  token.writeUInt16LE(status, 1);
  token.writeBigUInt64LE(BigInt(rows), 5);
  return token;
}

function errorToken(number: number, message: string, severity: number): Buffer {
  const numberAndState = Buffer.alloc(6);
  numberAndState.writeInt32LE(number, 0);
  numberAndState.writeUInt8(1, 4);
  numberAndState.writeUInt8(severity, 5);
  return sized(TOKEN.error, Buffer.concat([numberAndState, usVarchar(message), bVarchar('fake'), bVarchar(''), Buffer.alloc(4)]));
}

function packet(type: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt8(type, 0);
  head.writeUInt8(0x01, 1); // end of message
  head.writeUInt16BE(8 + payload.length, 2);
  head.writeUInt8(1, 6);
  return Buffer.concat([head, payload]);
}

function preloginAnswer(): Buffer {
  // Options: VERSION (6 bytes) and ENCRYPTION (1 byte: NOT_SUP), then the terminator.
  const options = Buffer.alloc(11);
  const dataStart = options.length;
  options.writeUInt8(0x00, 0);
  options.writeUInt16BE(dataStart, 1);
  options.writeUInt16BE(6, 3);
  options.writeUInt8(0x01, 5);
  options.writeUInt16BE(dataStart + 6, 6);
  options.writeUInt16BE(1, 8);
  options.writeUInt8(0xff, 10);
  return Buffer.concat([options, Buffer.from([16, 0, 0x07, 0xd0, 0, 0]), Buffer.from([0x02])]);
}

/** Reads a LOGIN7 string field (offset and length in characters at `at`). */
function loginField(login: Buffer, at: number): Buffer {
  const offset = login.readUInt16LE(at);
  const chars = login.readUInt16LE(at + 2);
  return login.subarray(offset, offset + chars * 2);
}

/** LOGIN7 passwords are scrambled: each byte's nibbles swapped, then XOR 0xA5. */
function unscramble(bytes: Buffer): string {
  return Buffer.from(
    bytes.map((byte) => {
      const x = byte ^ 0xa5;
      return ((x & 0x0f) << 4) | (x >> 4);
    }),
  ).toString('utf16le');
}

function loginAnswer(database: string): Buffer {
  const envChange = sized(TOKEN.envChange, Buffer.concat([Buffer.from([1]), bVarchar(database), bVarchar('master')]));
  const version = Buffer.alloc(5);
  version.writeUInt8(1, 0); // interface: T-SQL
  version.writeUInt32BE(0x74000004, 1); // TDS 7.4
  const ack = sized(TOKEN.loginAck, Buffer.concat([version, bVarchar('Microsoft SQL Server'), Buffer.from([16, 0, 0x07, 0xd0])]));
  return Buffer.concat([envChange, ack, done(DONE.final)]);
}

function batchAnswer(sql: string): Buffer {
  const trimmed = sql.trim();
  if (/^set /i.test(trimmed)) return done(DONE.final);
  const select = /^select\s+(-?\d+)\s*;?$/i.exec(trimmed);
  if (!select) {
    const name = /from\s+(\S+)/i.exec(trimmed)?.[1] ?? 'object';
    return Buffer.concat([errorToken(208, `Invalid object name '${name}'.`, 16), done(DONE.error)]);
  }
  // One column of type INTN(4), nameless, then one row.
  const column = Buffer.concat([Buffer.from([1, 0]), Buffer.alloc(4), Buffer.from([0x09, 0x00]), Buffer.from([0x26, 4]), Buffer.from([0])]);
  const value = Buffer.alloc(5);
  value.writeUInt8(4, 0);
  value.writeInt32LE(Number(select[1]), 1);
  return Buffer.concat([Buffer.from([TOKEN.colMetadata]), column, Buffer.from([TOKEN.row]), value, done(DONE.count, 1)]);
}

/** Starts the fake on a free loopback port with one SQL login. */
export async function startTdsFake(user: { username: string; password: string }): Promise<TdsFake> {
  const batches: string[] = [];
  const sockets = new Set<Socket>();

  function handle(type: number, message: Buffer, socket: Socket): void {
    if (type === PACKET.prelogin) socket.write(packet(PACKET.tabularResult, preloginAnswer()));
    else if (type === PACKET.login7) {
      const username = loginField(message, 40).toString('utf16le');
      const password = unscramble(loginField(message, 44));
      const database = loginField(message, 68).toString('utf16le') || 'master';
      const ok = username === user.username && password === user.password;
      socket.write(
        packet(
          PACKET.tabularResult,
          ok ? loginAnswer(database) : Buffer.concat([errorToken(18456, `Login failed for user '${username}'.`, 14), done(DONE.error)]),
        ),
      );
    } else if (type === PACKET.sqlBatch) {
      // ALL_HEADERS (its total length first), then the batch text in UCS-2.
      const sql = message.subarray(message.readUInt32LE(0)).toString('utf16le');
      if (!/^set /i.test(sql.trim())) batches.push(sql);
      if (sql.includes('svc_drop_connection')) return void socket.destroy(); // a server that dies mid-query
      socket.write(packet(PACKET.tabularResult, batchAnswer(sql)));
    } else socket.destroy();
  }

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    let message: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 8 && pending.length >= pending.readUInt16BE(2)) {
        const length = pending.readUInt16BE(2);
        const [type, status] = [pending[0], pending[1]];
        message.push(pending.subarray(8, length));
        pending = pending.subarray(length);
        if (status & 0x01) {
          handle(type, Buffer.concat(message), socket);
          message = [];
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    batches,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
