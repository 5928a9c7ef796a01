import { isIP, type Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { EgressPolicy } from './egress.js';
import { tlsConnectionOptions } from './tls-options.js';

/**
 * An undici connector that resolves every host through the egress policy (literal addresses
 * included, which a `lookup` option would never see) and connects to the address it allows,
 * keeping the host name for SNI and certificate checks.
 */
function policyConnector(egress: EgressPolicy, insecure: boolean): buildConnector.connector {
  const connect = buildConnector({ ...tlsConnectionOptions(egress, insecure) } as buildConnector.BuildOptions);
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    egress.resolve(host).then(
      ({ address }) => {
        const servername = options.servername ?? (isIP(host) ? undefined : host);
        connect({ ...options, hostname: address, ...(servername ? { servername } : {}) }, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
}

// One connector per policy and TLS mode: it holds the TLS session cache, so that runs against
// the same host resume sessions instead of doing full handshakes.
const connectors = new WeakMap<EgressPolicy, { verified: buildConnector.connector; insecure: buildConnector.connector }>();

function sharedConnector(egress: EgressPolicy, insecure: boolean): buildConnector.connector {
  let pair = connectors.get(egress);
  if (!pair) {
    pair = { verified: policyConnector(egress, false), insecure: policyConnector(egress, true) };
    connectors.set(egress, pair);
  }
  return insecure ? pair.insecure : pair.verified;
}

/**
 * The dispatcher of one run: a small undici Agent over the policy's shared connector, destroyed
 * by the caller when the run ends. A run owns its connections so that a deadline tears them
 * down for certain (a shared pool reconnects after an aborted request and keeps that socket)
 * and every run really connects to its target. `onSocket` sees each connection once it is up.
 */
export function runDispatcher(egress: EgressPolicy, insecure: boolean, onSocket?: (socket: Socket) => void): Agent {
  const connect = sharedConnector(egress, insecure);
  return new Agent({
    pipelining: 1,
    connect: onSocket
      ? (options, callback) =>
          connect(options, (error, socket) => {
            if (!error && socket) onSocket(socket as Socket);
            (callback as (error: Error | null, socket: unknown) => void)(error, socket);
          })
      : connect,
  });
}
