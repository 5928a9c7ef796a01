import { connect as netConnect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { EgressPolicy } from './egress.js';

/**
 * A SOCKS5 proxy on loopback for one run of a driver that discovers servers by itself (MongoDB:
 * SRV answers and the members a server's `hello` announces). The driver is pointed at it, so every
 * connection it opens, to a name or to an IP literal, asks here first: the proxy resolves the
 * destination through the egress policy and connects to the address the policy allowed, or
 * answers "not allowed" and remembers why. Only CONNECT without authentication (RFC 1928).
 */
export interface EgressSocksProxy {
  host: '127.0.0.1';
  port: number;
  /** The policy's refusals so far, in order (`egress policy refuses ...`). */
  readonly refusals: string[];
  /** Connections to allowed addresses that failed (refused, unreachable), in order. */
  readonly connectErrors: NodeJS.ErrnoException[];
  close(): Promise<void>;
}

const REPLY_OK = 0x00;
const REPLY_FAILURE = 0x01;
const REPLY_NOT_ALLOWED = 0x02;
const REPLY_REFUSED = 0x05;
const REPLY_COMMAND = 0x07;

/** Reads exact byte counts from a socket that is still in the handshake. */
function byteReader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  let ended = false;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake?.();
  };
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  socket.on('data', onData);
  socket.once('close', onEnd);
  return {
    async read(count: number): Promise<Buffer> {
      while (buffered.length < count) {
        if (ended) throw new Error('closed during the SOCKS handshake');
        await new Promise<void>((resolve) => (wake = resolve));
      }
      const bytes = buffered.subarray(0, count);
      buffered = buffered.subarray(count);
      return bytes;
    },
    /** Stops reading and hands back what arrived beyond the handshake. */
    release(): Buffer {
      socket.off('data', onData);
      socket.off('close', onEnd);
      socket.pause();
      return buffered;
    },
  };
}

function reply(code: number): Buffer {
  return Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
}

async function readRequest(read: (count: number) => Promise<Buffer>): Promise<{ command: number; host: string; port: number }> {
  const [, command, , addressType] = await read(4);
  let host: string;
  if (addressType === 0x01) host = [...(await read(4))].join('.');
  else if (addressType === 0x04) {
    const bytes = await read(16);
    host = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(':');
  } else if (addressType === 0x03) host = (await read((await read(1))[0])).toString('latin1');
  else throw new Error('unknown address type');
  const port = (await read(2)).readUInt16BE(0);
  return { command, host, port };
}

/** Starts the proxy on 127.0.0.1 (any free port); close it when the run ends. */
export async function startEgressSocksProxy(egress: EgressPolicy): Promise<EgressSocksProxy> {
  const refusals: string[] = [];
  const connectErrors: NodeJS.ErrnoException[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };

  const server = createServer((client) => {
    track(client);
    const reader = byteReader(client);
    void (async () => {
      const greeting = await reader.read(2);
      if (greeting[0] !== 0x05) throw new Error('not SOCKS5');
      await reader.read(greeting[1]);
      client.write(Buffer.from([0x05, 0x00]));
      const { command, host, port } = await readRequest(reader.read);
      if (command !== 0x01) return void client.end(reply(REPLY_COMMAND));
      let address: string;
      try {
        address = (await egress.resolve(host)).address;
      } catch (error) {
        const message = (error as Error).message;
        if (message.startsWith('egress policy refuses ')) {
          refusals.push(message);
          return void client.end(reply(REPLY_NOT_ALLOWED));
        }
        return void client.end(reply(REPLY_FAILURE));
      }
      const upstream = track(netConnect({ host: address, port }));
      upstream.once('error', (error) => {
        connectErrors.push(error);
        client.end(reply(REPLY_REFUSED));
      });
      upstream.once('connect', () => {
        upstream.removeAllListeners('error');
        upstream.on('error', () => client.destroy());
        client.write(reply(REPLY_OK));
        const early = reader.release();
        if (early.length > 0) upstream.write(early);
        client.pipe(upstream).on('close', () => client.destroy());
        upstream.pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
        client.resume();
      });
    })().catch(() => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    refusals,
    connectErrors,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
