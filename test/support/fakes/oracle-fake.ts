import { createCipheriv, createDecipheriv, createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';

// A protocol-level Oracle Database fake, enough for the thin-mode driver (oracledb) to sign in:
// the TNS listener (REFUSE with ERR=12514 for an unknown service, ACCEPT at TNS version 315
// without network services), the TTC protocol and data type negotiation, and the O5LOGON
// sign-in with a 12c (PBKDF2-SHA512) verifier against one user, checking the password the
// driver encrypts with the session's combined key and answering with the server proof the
// driver verifies. After sign-in it answers `SELECT 1 FROM DUAL` (one NUMBER row), any other
// statement with ORA-00942, and log-off. Wire layouts follow the driver's own decoder
// (lib/thin/protocol).

const PACKET = { connect: 1, accept: 2, refuse: 4, data: 6 } as const;
const MESSAGE = { protocol: 1, dataTypes: 2, function: 3, error: 4, rowHeader: 6, rowData: 7, parameter: 8, status: 9, describeInfo: 16 } as const;
const FUNCTION = { authPhaseOne: 118, authPhaseTwo: 115, execute: 94 } as const;
const TNS_VERSION = 315; // large SDU; no data flags, end-of-request or fast authentication
const VERIFIER_12C = 0x4815;
const VGEN_COUNT = 4096;
const SDER_COUNT = 3;

/** TTC encodings, as the driver reads them. */
class Writer {
  private readonly parts: Buffer[] = [];
  byte(value: number) {
    this.parts.push(Buffer.from([value]));
    return this;
  }
  raw(bytes: Buffer) {
    this.parts.push(bytes);
    return this;
  }
  /** UB2/UB4/UB8: a length byte, then the value big-endian in as few bytes as it needs. */
  ub(value: number) {
    if (value === 0) return this.byte(0);
    const size = value <= 0xff ? 1 : value <= 0xffff ? 2 : 4;
    const bytes = Buffer.alloc(size);
    bytes.writeUIntBE(value, 0, size);
    return this.byte(size).raw(bytes);
  }
  /** A string with a one-byte length (all the values here are short). */
  str(text: string) {
    const bytes = Buffer.from(text);
    return this.byte(bytes.length).raw(bytes);
  }
  keyValue(key: string, value: string, flag = 0) {
    this.ub(Buffer.byteLength(key)).str(key).ub(Buffer.byteLength(value));
    if (value) this.str(value);
    return this.ub(flag);
  }
  done() {
    return Buffer.concat(this.parts);
  }
}

/** A DATA packet after ACCEPT: 4-byte length (large SDU), type, flags, checksum, data flags. */
function dataPacket(payload: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.writeUInt32BE(10 + payload.length, 0);
  head.writeUInt8(PACKET.data, 4);
  return Buffer.concat([head, payload]);
}

function refusePacket(code: number): Buffer {
  const data = Buffer.from(`(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=${code})(ERROR_STACK=(ERROR=(CODE=${code})(EMFI=4))))`, 'ascii');
  const packet = Buffer.alloc(12 + data.length);
  packet.writeUInt16BE(packet.length, 0);
  packet.writeUInt8(PACKET.refuse, 4);
  packet.writeUInt8(0x22, 8);
  packet.writeUInt16BE(data.length, 10);
  data.copy(packet, 12);
  return packet;
}

function acceptPacket(): Buffer {
  const packet = Buffer.alloc(41);
  packet.writeUInt16BE(packet.length, 0);
  packet.writeUInt8(PACKET.accept, 4);
  packet.writeUInt16BE(TNS_VERSION, 8);
  packet.writeUInt16BE(8192, 12); // SDU
  packet.writeUInt16BE(65535, 14); // TDU
  packet.writeUInt16BE(0x0100, 16);
  packet.writeUInt16BE(41, 20);
  packet.writeUInt8(0x08, 23); // no network (ANO) services
  packet.writeUInt32BE(8192, 32); // large SDU
  packet.writeUInt32BE(65535, 36); // large TDU
  return packet;
}

function protocolAnswer(): Buffer {
  const fdo = Buffer.alloc(11);
  fdo.writeUInt16BE(2000, 9); // national character set AL16UTF16
  const compileCaps = Buffer.alloc(8);
  compileCaps[7] = 8; // TTC field version 12.2
  const runtimeCaps = Buffer.alloc(7);
  runtimeCaps[1] = 0x01; // time zone in the data type answer
  const charset = Buffer.alloc(2);
  charset.writeUInt16LE(873); // AL32UTF8
  return new Writer()
    .byte(MESSAGE.protocol)
    .byte(6)
    .byte(0)
    .raw(Buffer.from('fake-oracle\0'))
    .raw(charset)
    .byte(0)
    .raw(Buffer.from([0, 0])) // no elements
    .raw(Buffer.from([0, fdo.length]))
    .raw(fdo)
    .byte(compileCaps.length)
    .raw(compileCaps)
    .byte(runtimeCaps.length)
    .raw(runtimeCaps)
    .done();
}

function dataTypesAnswer(): Buffer {
  const timeZone = Buffer.alloc(11);
  timeZone[4] = 60; // UTC: hours and minutes are offset by 60
  timeZone[5] = 60;
  return new Writer()
    .byte(MESSAGE.dataTypes)
    .raw(timeZone)
    .raw(Buffer.from([0, 0]))
    .done();
}

const status = () => new Writer().byte(MESSAGE.status).ub(0).ub(0).done();

/**
 * The answer to `SELECT 1 FROM DUAL`: the description of one NUMBER column, one row holding 1,
 * and the end of the fetch (ORA-01403) on cursor 1.
 */
function selectOneAnswer(): Buffer {
  const out = new Writer().byte(MESSAGE.describeInfo).byte(0); // no chunked prefix
  out.ub(22).ub(1).byte(0); // max row size, one column
  out.byte(2).byte(0).byte(0).byte(0x81); // NUMBER, flags, precision 0, scale -127
  out.ub(22).ub(0).ub(0).ub(0).ub(0).ub(0).byte(0).ub(22).ub(0); // sizes, OID, version, charset, form, size, oaccolid
  out.byte(1).byte(0).ub(1).str('1').ub(0).ub(0).ub(1).ub(0); // nullable, name "1", no schema or type, position, flags
  out.ub(0).ub(0).ub(0).ub(0).ub(0).ub(0); // no current date, dcb fields, no trailer
  out.byte(MESSAGE.rowHeader).byte(0).ub(1).ub(0).ub(1).ub(0).ub(0).ub(0);
  out.byte(MESSAGE.rowData).raw(Buffer.from([2, 0xc1, 0x02])); // the Oracle NUMBER 1
  return Buffer.concat([out.done(), errorAnswer(1403, 'ORA-01403: no data found', { cursorId: 1, rowCount: 1 })]);
}

/** An error ending the call, as the driver's processErrorInfo reads it (TTC field version 12.2). */
function errorAnswer(code: number, text: string, call: { cursorId?: number; rowCount?: number } = {}): Buffer {
  const out = new Writer().byte(MESSAGE.error);
  out
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(call.cursorId ?? 0)
    .ub(0); // call status .. cursor id, error position
  out.raw(Buffer.alloc(6)); // sql type, fatal, flags, cursor options, UPI parameter, warning flag
  out.ub(0).ub(0).byte(0).ub(0).ub(0); // row id
  out.ub(0).byte(0).byte(0).ub(0).ub(0).ub(0); // OS error .. logical row id
  out.ub(0).ub(0).ub(0); // batch errors, offsets, messages
  return out
    .ub(code)
    .ub(call.rowCount ?? 0)
    .str(`${text}\n`)
    .done();
}

const aes = (key: Buffer, data: Buffer, decrypt = false) => {
  const cipher = decrypt ? createDecipheriv('aes-256-cbc', key, Buffer.alloc(16)) : createCipheriv('aes-256-cbc', key, Buffer.alloc(16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
};

/** The value of `key` in a message of key-value pairs (`keyValue` above), or undefined. */
function pairValue(message: Buffer, key: string): string | undefined {
  const at = message.indexOf(Buffer.concat([Buffer.from([key.length]), Buffer.from(key)]));
  if (at < 0) return undefined;
  let offset = at + 1 + key.length;
  const size = message[offset];
  offset += 1 + size;
  const length = message[offset];
  return message.toString('utf8', offset + 1, offset + 1 + length);
}

interface Session {
  username: string;
  passwordHash: Buffer;
  partA: Buffer;
  cskSalt: Buffer;
}

export interface OracleFake {
  port: number;
  /** Sign-ins that succeeded. */
  signIns: number;
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port, serving `service` with one user. */
export async function startOracleFake(options: { service: string; username: string; password: string }): Promise<OracleFake> {
  const sockets = new Set<Socket>();

  function phaseOne(message: Buffer): { answer: Buffer; session: Session } {
    // After the function header (type, code, sequence): has-user flag, UB4 user length, UB4 mode,
    // then 1, UB4 5, 0, 1 and the user name with a one-byte length.
    let offset = 3 + 1;
    const skipUb = () => (offset += 1 + message[offset]);
    skipUb();
    skipUb();
    offset += 1;
    skipUb();
    offset += 2;
    const username = message.toString('utf8', offset + 1, offset + 1 + message[offset]);
    // An unknown user gets a verifier for a random password, as a real server does not say.
    const password = username === options.username ? options.password : randomBytes(16).toString('hex');
    const verifierData = randomBytes(16);
    const passwordKey = pbkdf2Sync(Buffer.from(password), Buffer.concat([verifierData, Buffer.from('AUTH_PBKDF2_SPEEDY_KEY')]), VGEN_COUNT, 64, 'sha512');
    const passwordHash = createHash('sha512').update(passwordKey).update(verifierData).digest().subarray(0, 32);
    const session: Session = { username, passwordHash, partA: randomBytes(32), cskSalt: randomBytes(32) };
    const answer = new Writer()
      .byte(MESSAGE.parameter)
      .ub(5)
      .keyValue('AUTH_SESSKEY', aes(passwordHash, session.partA).toString('hex').toUpperCase())
      .keyValue('AUTH_VFR_DATA', verifierData.toString('hex').toUpperCase(), VERIFIER_12C)
      .keyValue('AUTH_PBKDF2_CSK_SALT', session.cskSalt.toString('hex').toUpperCase())
      .keyValue('AUTH_PBKDF2_VGEN_COUNT', String(VGEN_COUNT))
      .keyValue('AUTH_PBKDF2_SDER_COUNT', String(SDER_COUNT))
      .done();
    return { answer: Buffer.concat([answer, status()]), session };
  }

  function phaseTwo(message: Buffer, session: Session): { answer: Buffer; ok: boolean } {
    const denied = { answer: errorAnswer(1017, 'ORA-01017: invalid username/password; logon denied'), ok: false };
    const clientKey = pairValue(message, 'AUTH_SESSKEY');
    const encrypted = pairValue(message, 'AUTH_PASSWORD');
    if (!clientKey || !encrypted) return denied;
    const partB = aes(session.passwordHash, Buffer.from(clientKey, 'hex').subarray(0, 32), true);
    const mixed = Buffer.from(Buffer.concat([partB, session.partA]).toString('hex').toUpperCase());
    const comboKey = pbkdf2Sync(mixed, session.cskSalt, SDER_COUNT, 32, 'sha512');
    const padded = aes(comboKey, Buffer.from(encrypted, 'hex'), true);
    const password = padded.subarray(16, padded.length - padded[padded.length - 1]).toString('utf8');
    if (session.username !== options.username || password !== options.password) return denied;
    const proof = aes(comboKey, Buffer.concat([randomBytes(16), Buffer.from('SERVER_TO_CLIENT')]));
    const answer = new Writer()
      .byte(MESSAGE.parameter)
      .ub(4)
      .keyValue('AUTH_SVR_RESPONSE', proof.toString('hex').toUpperCase())
      .keyValue('AUTH_VERSION_NO', String((19 << 24) | (3 << 20)))
      .keyValue('AUTH_SESSION_ID', '1')
      .keyValue('AUTH_SC_SERVICE_NAME', options.service)
      .done();
    return { answer: Buffer.concat([answer, status()]), ok: true };
  }

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    let accepted = false;
    let connectDataMissing = 0;
    let session: Session | undefined;

    const onMessage = (payload: Buffer) => {
      const [type, code] = payload;
      if (type === MESSAGE.protocol) socket.write(dataPacket(protocolAnswer()));
      else if (type === MESSAGE.dataTypes) socket.write(dataPacket(dataTypesAnswer()));
      else if (type === MESSAGE.function && code === FUNCTION.authPhaseOne) {
        const one = phaseOne(payload);
        session = one.session;
        socket.write(dataPacket(one.answer));
      } else if (type === MESSAGE.function && code === FUNCTION.authPhaseTwo && session) {
        const two = phaseTwo(payload, session);
        if (two.ok) fake.signIns += 1;
        socket.write(dataPacket(two.answer));
      } else if (payload.includes(Buffer.from([MESSAGE.function, FUNCTION.execute]))) {
        const selectOne = /select 1 from dual/i.test(payload.toString('latin1'));
        socket.write(dataPacket(selectOne ? selectOneAnswer() : errorAnswer(942, 'ORA-00942: table or view does not exist')));
      } else socket.write(dataPacket(status())); // log-off and anything else
    };

    const onConnect = (connectData: string) => {
      const service = /\(SERVICE_NAME=([^)]*)\)/i.exec(connectData)?.[1];
      if (service?.toUpperCase() !== options.service.toUpperCase()) {
        socket.end(refusePacket(12514));
        return;
      }
      accepted = true;
      socket.write(acceptPacket());
    };

    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        // Before ACCEPT a packet's length takes 2 bytes, after it (large SDU) 4.
        if (pending.length < 8) return;
        const length = accepted ? pending.readUInt32BE(0) : pending.readUInt16BE(0);
        if (pending.length < length) return;
        const packet = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (!accepted && packet[4] === PACKET.connect) {
          const dataLength = packet.readUInt16BE(24);
          const dataOffset = packet.readUInt16BE(26);
          // Long connect data follows the CONNECT packet in a DATA packet of its own.
          if (dataOffset + dataLength > packet.length) connectDataMissing = dataLength;
          else onConnect(packet.toString('ascii', dataOffset, dataOffset + dataLength));
        } else if (!accepted && connectDataMissing) {
          connectDataMissing = 0;
          onConnect(packet.toString('ascii', 10));
        } else if (accepted && packet[4] === PACKET.data) {
          onMessage(packet.subarray(10));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: OracleFake = {
    port: (server.address() as AddressInfo).port,
    signIns: 0,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return fake;
}
