import { createCipheriv, createDecipheriv, createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import {
  acceptPacket,
  dataPacket,
  dataTypesAnswer,
  errorAnswer,
  FUNCTION,
  MESSAGE,
  PACKET,
  protocolAnswer,
  refusePacket,
  SDER_COUNT,
  selectOneAnswer,
  status,
  VERIFIER_12C,
  VGEN_COUNT,
  Writer,
} from './oracle-messages.js';

// A protocol-level Oracle Database fake, enough for the thin-mode driver (oracledb) to sign in:
// the TNS listener (REFUSE with ERR=12514 for an unknown service, ACCEPT at TNS version 315
// without network services), the TTC protocol and data type negotiation, and the O5LOGON
// sign-in with a 12c (PBKDF2-SHA512) verifier against one user, checking the password the
// driver encrypts with the session's combined key and answering with the server proof the
// driver verifies. After sign-in it answers `SELECT 1 FROM DUAL` (one NUMBER row), any other
// statement with ORA-00942, and log-off. With a certificate it listens as TCPS: TLS from the
// first byte, TNS inside (Oracle Net's TCPS protocol, as the thin driver opens it with
// `(PROTOCOL=TCPS)`). Wire layouts follow the driver's own decoder (lib/thin/protocol).

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
export async function startOracleFake(options: {
  service: string;
  username: string;
  password: string;
  /** Listen as TCPS with this certificate. */
  tls?: { cert: string; key: string };
}): Promise<OracleFake> {
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

  const serve = (socket: Socket) => {
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
  };
  const server: Server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, serve) : createServer(serve);
  server.on('tlsClientError', () => {}); // a client refusing the certificate ends its handshake
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
