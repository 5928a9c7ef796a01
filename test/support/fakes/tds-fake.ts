import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { createSecureContext, TLSSocket } from 'node:tls';
import {
  batchAnswer,
  ENCRYPT,
  loginAnswer,
  loginFailed,
  PACKET,
  packet,
  preloginAnswer,
  preloginEncryption,
  readLogin7,
  tdsMessageReader,
} from './tds-messages.js';

// A protocol-level SQL Server fake: TDS 7.4 packets, PRELOGIN with the encryption negotiation
// of MS-TDS 2.2.6.5 and the TLS handshake carried in PRELOGIN packets (MS-TDS 3.2.5.1-3.2.5.3,
// 3.3.5.1-3.3.5.3), LOGIN7 checked against one user (the password de-scrambled as the protocol
// defines), and SQL batches: SET statements, `SELECT <integer>` (one int row) and an error for
// anything else. Enough for tedious to connect, sign in (in the clear, or over TLS) and run a
// query; not a database.

/**
 * The server's encryption setting, as SQL Server's "Force Encryption" and certificate make it:
 * - 'not-supported': no certificate, answers ENCRYPT_NOT_SUP (the default);
 * - 'optional': a certificate, answers ENCRYPT_OFF, so a client asking for encryption gets all
 *   of its traffic encrypted and one that does not ask gets its LOGIN7 encrypted only;
 * - 'required': Force Encryption, answers ENCRYPT_REQ and ends a connection that cannot encrypt.
 */
export type TdsEncryption = 'not-supported' | 'optional' | 'required';

/** How a connection's encryption came out of PRELOGIN. */
export type TdsNegotiated = 'none' | 'login' | 'full' | 'refused';

export interface TdsFakeOptions {
  encryption?: TdsEncryption;
  /** The certificate of 'optional' and 'required'. */
  tls?: { cert: string; key: string };
}

export interface TdsFake {
  port: number;
  /** SQL batches received after sign-in. */
  batches: string[];
  /** Each connection's negotiated encryption, in order. */
  negotiated: TdsNegotiated[];
  close(): Promise<void>;
}

/** MS-TDS 2.2.6.5: the server's ENCRYPTION answer to the client's, and what follows from it. */
function negotiate(setting: TdsEncryption, client: number | undefined): { answer: number; negotiated: TdsNegotiated } {
  const wantsTls = client === ENCRYPT.on || client === ENCRYPT.required;
  if (setting === 'not-supported') return { answer: ENCRYPT.notSupported, negotiated: 'none' }; // a client requiring TLS ends here
  if (setting === 'optional') {
    if (wantsTls) return { answer: ENCRYPT.on, negotiated: 'full' };
    return client === ENCRYPT.off ? { answer: ENCRYPT.off, negotiated: 'login' } : { answer: ENCRYPT.notSupported, negotiated: 'none' };
  }
  if (client === ENCRYPT.notSupported || client === undefined) return { answer: ENCRYPT.required, negotiated: 'refused' };
  return { answer: client === ENCRYPT.on ? ENCRYPT.on : ENCRYPT.required, negotiated: 'full' };
}

/** TLS records start with a content type of 20-23 (RFC 5246 6.2.1); no TDS packet type does. */
const isTlsRecord = (chunk: Buffer) => chunk[0] >= 0x14 && chunk[0] <= 0x17;

/** Starts the fake on a free loopback port with one SQL login. */
export async function startTdsFake(user: { username: string; password: string }, options: TdsFakeOptions = {}): Promise<TdsFake> {
  const setting = options.encryption ?? 'not-supported';
  if (setting !== 'not-supported' && !options.tls) throw new Error(`encryption '${setting}' needs a certificate`);
  const secureContext = options.tls ? createSecureContext({ cert: options.tls.cert, key: options.tls.key }) : undefined;
  const fake: TdsFake = { port: 0, batches: [], negotiated: [], close: async () => {} };
  const sockets = new Set<Socket>();

  /** Answers one message in the clear protocol; `reply` writes a whole TDS message back. */
  function handle(type: number, message: Buffer, reply: (bytes: Buffer) => void, end: () => void): void {
    if (type === PACKET.login7) {
      const { username, password, database } = readLogin7(message);
      const ok = username === user.username && password === user.password;
      reply(packet(PACKET.tabularResult, ok ? loginAnswer(database) : loginFailed(username)));
    } else if (type === PACKET.sqlBatch) {
      // ALL_HEADERS (its total length first), then the batch text in UCS-2.
      const sql = message.subarray(message.readUInt32LE(0)).toString('utf16le');
      if (!/^set /i.test(sql.trim())) fake.batches.push(sql);
      if (sql.includes('svc_drop_connection')) return end(); // a server that dies mid-query
      reply(packet(PACKET.tabularResult, batchAnswer(sql)));
    } else end();
  }

  function serve(socket: Socket) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const destroy = () => void socket.destroy();
    // 'plain': TDS packets on the socket; 'handshake': TLS records inside PRELOGIN packets;
    // 'tls': TLS records straight on the socket, TDS packets inside them.
    let state: 'prelogin' | 'plain' | 'handshake' | 'tls' = 'prelogin';
    let tls: TLSSocket | undefined;
    let carrier: Duplex | undefined;

    /** MS-TDS 3.3.5.2-3.3.5.3: the server's side of TLS, its records wrapped while handshaking. */
    function startTls(negotiated: 'login' | 'full') {
      const outgoing: Buffer[] = [];
      carrier = new Duplex({
        read() {},
        write(chunk: Buffer, _encoding, done) {
          if (state === 'tls') socket.write(chunk);
          else if (state === 'handshake') {
            // One PRELOGIN message answers each flight of the client's handshake: what TLS
            // writes for one flight is gathered and sent when it is done.
            if (outgoing.push(chunk) === 1) setImmediate(() => socket.write(packet(PACKET.prelogin, Buffer.concat(outgoing.splice(0)))));
          } // after a login-only LOGIN7 the TLS session is left: nothing more goes out through it
          done();
        },
      });
      tls = new TLSSocket(carrier, { isServer: true, secureContext });
      tls.on('error', destroy);
      const cleartext = tdsMessageReader((type, message) => {
        if (negotiated === 'full') return handle(type, message, (bytes) => tls?.write(bytes), destroy);
        // ENCRYPT_OFF: the LOGIN7 alone came encrypted; the answer and the rest go in the clear.
        state = 'plain';
        handle(type, message, (bytes) => socket.write(bytes), destroy);
      });
      tls.on('data', cleartext);
    }

    const fromClient = tdsMessageReader((type, message) => {
      if (state === 'prelogin') {
        if (type !== PACKET.prelogin) return destroy();
        const { answer, negotiated } = negotiate(setting, preloginEncryption(message));
        fake.negotiated.push(negotiated);
        socket.write(packet(PACKET.tabularResult, preloginAnswer(answer)));
        if (negotiated === 'refused') return void socket.end(); // MS-TDS 2.2.6.5: the server terminates
        if (negotiated === 'none') state = 'plain';
        else {
          state = 'handshake';
          startTls(negotiated);
        }
      } else if (state === 'handshake') {
        if (type !== PACKET.prelogin) return destroy();
        carrier?.push(message);
      } else handle(type, message, (bytes) => socket.write(bytes), destroy);
    });

    socket.on('data', (chunk: Buffer) => {
      // After its handshake the client sends TLS records bare (MS-TDS 3.2.5.3).
      if (state === 'handshake' && isTlsRecord(chunk)) state = 'tls';
      if (state === 'tls') carrier?.push(chunk);
      else fromClient(chunk);
    });
  }

  const server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return fake;
}
