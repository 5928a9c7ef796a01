import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { ENCRYPT, PACKET, packet, preloginAnswer, preloginEncryption, tdsMessageReader } from '../../support/fakes/tds-messages.js';

// A bare TDS client that offers ENCRYPT_OFF, which tedious never sends (it offers
// ENCRYPT_NOT_SUP when it does not encrypt): against a server with a certificate, MS-TDS
// 2.2.6.5 then encrypts the LOGIN7 alone. The TLS handshake travels in PRELOGIN packets
// (MS-TDS 3.2.5.1-3.2.5.2), the LOGIN7 goes in a TLS record, and everything after it in the clear.
// tedious's own LOGIN7 encoder writes the sign-in.

type Login7Payload = { userName?: string; password?: string; database?: string; toBuffer(): Buffer };
const require = createRequire(import.meta.url);
const Login7 = require('tedious/lib/login7-payload') as new (options: object) => Login7Payload;

export interface TdsMessage {
  type: number;
  message: Buffer;
}

export interface LoginOnlyResult {
  /** The ENCRYPTION the server answered. */
  encryption: number | undefined;
  /** The TLS protocol the LOGIN7 went under. */
  protocol: string | null;
  /** The server's answer to LOGIN7, read in the clear. */
  loginAnswer: TdsMessage;
  /** The answer to `sql` sent in the clear after signing in. */
  batchAnswer: TdsMessage;
}

export async function signInWithLoginOnlyEncryption(port: number, user: { username: string; password: string }, sql: string): Promise<LoginOnlyResult> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const waiting: Array<(message: TdsMessage) => void> = [];
  const queued: TdsMessage[] = [];
  let handshaking = false;
  let carrier: Duplex | undefined;
  const next = () =>
    new Promise<TdsMessage>((resolve, reject) => {
      if (queued.length > 0) return resolve(queued.shift() as TdsMessage);
      const timer = setTimeout(() => reject(new Error('no TDS message in the clear within 5 s')), 5000);
      waiting.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  socket.on(
    'data',
    tdsMessageReader((type, message) => {
      if (handshaking) carrier?.push(message);
      else (waiting.shift() ?? ((m: TdsMessage) => queued.push(m)))({ type, message });
    }),
  );
  try {
    // PRELOGIN has the same shape both ways: VERSION, then ENCRYPTION.
    socket.write(packet(PACKET.prelogin, preloginAnswer(ENCRYPT.off)));
    const encryption = preloginEncryption((await next()).message);

    handshaking = true;
    let flight: Buffer[] = [];
    carrier = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        if (!handshaking) socket.write(chunk);
        else if (flight.push(chunk) === 1) {
          setImmediate(() => {
            socket.write(packet(PACKET.prelogin, Buffer.concat(flight)));
            flight = [];
          });
        }
        done();
      },
    });
    const tls: TLSSocket = tlsConnect({ socket: carrier, rejectUnauthorized: false, maxVersion: 'TLSv1.2' });
    await new Promise<void>((resolve, reject) => tls.once('secureConnect', resolve).once('error', reject));
    handshaking = false;

    const login = new Login7({
      tdsVersion: 0x74000004,
      packetSize: 4096,
      clientProgVer: 0,
      clientPid: 1,
      connectionId: 0,
      clientTimeZone: 0,
      clientLcid: 0x409,
    });
    login.userName = user.username;
    login.password = user.password;
    tls.write(packet(PACKET.login7, login.toBuffer()));
    const loginAnswer = await next();

    const allHeaders = Buffer.alloc(4);
    allHeaders.writeUInt32LE(4); // ALL_HEADERS: its own length, no headers
    socket.write(packet(PACKET.sqlBatch, Buffer.concat([allHeaders, Buffer.from(sql, 'utf16le')])));
    const batchAnswer = await next();
    return { encryption, protocol: tls.getProtocol(), loginAnswer, batchAnswer };
  } finally {
    socket.destroy();
  }
}
