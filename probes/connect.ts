import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { onAbort } from './abort.js';
import type { ProbeContext } from './probe.js';

/**
 * Opens a TCP connection to an address the egress policy allowed, and destroys it when the
 * probe's deadline passes. Resolves once connected; connection errors read as Node writes them
 * (`connect ECONNREFUSED 127.0.0.1:1234`).
 */
export function connectTcp(address: string, port: number, context: ProbeContext): Promise<Socket> {
  return settle(netConnect({ host: address, port }), 'connect', context);
}

/** The same over TLS (or upgrading `options.socket`); resolves after the handshake. */
export function connectTls(options: ConnectionOptions, context: ProbeContext): Promise<TLSSocket> {
  return settle(tlsConnect(options), 'secureConnect', context);
}

function settle<S extends Socket>(socket: S, connected: 'connect' | 'secureConnect', context: ProbeContext): Promise<S> {
  // Once connected, the socket stays tied to the deadline until it closes.
  const forget = onAbort(context.signal, () => socket.destroy());
  socket.once('close', forget);
  return new Promise<S>((resolve, reject) => {
    socket.once(connected, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
    if (context.signal.aborted) reject(context.signal.reason);
  });
}
