// Messages and tokens of the SQL Server fake, as MS-TDS (the Tabular Data Stream protocol,
// https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/) lays them out:
// the packet header (2.2.3.1), PRELOGIN (2.2.6.5), LOGIN7 (2.2.6.4) and the token stream of
// the answers (2.2.7: COLMETADATA, ERROR, LOGINACK, ROW, ENVCHANGE, DONE).

export const PACKET = { sqlBatch: 0x01, tabularResult: 0x04, login7: 0x10, prelogin: 0x12 } as const;
const TOKEN = { colMetadata: 0x81, error: 0xaa, loginAck: 0xad, row: 0xd1, envChange: 0xe3, done: 0xfd } as const;
const DONE = { final: 0x00, error: 0x02, count: 0x10 } as const;

/** The B_FENCRYPTION values of the PRELOGIN ENCRYPTION option (MS-TDS 2.2.6.5). */
export const ENCRYPT = { off: 0x00, on: 0x01, notSupported: 0x02, required: 0x03 } as const;
const PRELOGIN_OPTION = { version: 0x00, encryption: 0x01, terminator: 0xff } as const;

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

/**
 * A message in packets of at most 4096 bytes, the packet size before LOGIN7 negotiates another,
 * the last one with status EOM (MS-TDS 2.2.3.1).
 */
export function packet(type: number, payload: Buffer): Buffer {
  const size = 4096 - 8;
  const packets: Buffer[] = [];
  for (let at = 0, id = 1; at === 0 || at < payload.length; at += size, id += 1) {
    const part = payload.subarray(at, at + size);
    const head = Buffer.alloc(8);
    head.writeUInt8(type, 0);
    head.writeUInt8(at + size >= payload.length ? 0x01 : 0x00, 1); // end of message on the last
    head.writeUInt16BE(8 + part.length, 2);
    head.writeUInt8(id % 256, 6);
    packets.push(head, part);
  }
  return Buffer.concat(packets);
}

/** The client's ENCRYPTION option from its PRELOGIN (option tokens, offsets from the start, 0xFF last). */
export function preloginEncryption(message: Buffer): number | undefined {
  for (let at = 0; at + 5 <= message.length && message[at] !== PRELOGIN_OPTION.terminator; at += 5) {
    if (message[at] === PRELOGIN_OPTION.encryption) return message[message.readUInt16BE(at + 1)];
  }
  return undefined;
}

/** The server's PRELOGIN answer: VERSION (6 bytes) and ENCRYPTION (1 byte), then the terminator. */
export function preloginAnswer(encryption: number): Buffer {
  const options = Buffer.alloc(11);
  const dataStart = options.length;
  options.writeUInt8(PRELOGIN_OPTION.version, 0);
  options.writeUInt16BE(dataStart, 1);
  options.writeUInt16BE(6, 3);
  options.writeUInt8(PRELOGIN_OPTION.encryption, 5);
  options.writeUInt16BE(dataStart + 6, 6);
  options.writeUInt16BE(1, 8);
  options.writeUInt8(PRELOGIN_OPTION.terminator, 10);
  return Buffer.concat([options, Buffer.from([16, 0, 0x07, 0xd0, 0, 0]), Buffer.from([encryption])]);
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

export function readLogin7(message: Buffer): { username: string; password: string; database: string } {
  return {
    username: loginField(message, 40).toString('utf16le'),
    password: unscramble(loginField(message, 44)),
    database: loginField(message, 68).toString('utf16le') || 'master',
  };
}

export function loginAnswer(database: string): Buffer {
  const envChange = sized(TOKEN.envChange, Buffer.concat([Buffer.from([1]), bVarchar(database), bVarchar('master')]));
  const version = Buffer.alloc(5);
  version.writeUInt8(1, 0); // interface: T-SQL
  version.writeUInt32BE(0x74000004, 1); // TDS 7.4
  const ack = sized(TOKEN.loginAck, Buffer.concat([version, bVarchar('Microsoft SQL Server'), Buffer.from([16, 0, 0x07, 0xd0])]));
  return Buffer.concat([envChange, ack, done(DONE.final)]);
}

export function loginFailed(username: string): Buffer {
  return Buffer.concat([errorToken(18456, `Login failed for user '${username}'.`, 14), done(DONE.error)]);
}

export function batchAnswer(sql: string): Buffer {
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

/** Splits a byte stream into TDS messages (packets up to the one with status EOM). */
export function tdsMessageReader(onMessage: (type: number, message: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let parts: Buffer[] = [];
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 8 && pending.length >= pending.readUInt16BE(2)) {
      const length = pending.readUInt16BE(2);
      const [type, status] = [pending[0], pending[1]];
      parts.push(pending.subarray(8, length));
      pending = pending.subarray(length);
      if (status & 0x01) {
        const message = Buffer.concat(parts);
        parts = [];
        onMessage(type, message);
      }
    }
  };
}
