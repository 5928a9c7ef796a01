import { isIP, type Socket } from 'node:net';
import { Agent, buildConnector, Client, Dispatcher } from 'undici';
import type { EgressPolicy } from './egress.js';
import { tlsConnectionOptions } from './tls-options.js';

/**
 * An undici connector that resolves every host through the egress policy (literal addresses
 * included, which a `lookup` option would never see) and connects to the address it allows,
 * keeping the host name for SNI and certificate checks.
 */
function policyConnector(egress: EgressPolicy, insecure: boolean, resumeSessions: boolean): buildConnector.connector {
  const connect = buildConnector({
    ...tlsConnectionOptions(egress, insecure),
    ...(resumeSessions ? {} : { maxCachedSessions: 0 }),
  } as buildConnector.BuildOptions);
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

// One connector per policy, TLS mode and session policy: a resuming connector holds the TLS
// session cache, so that runs against the same host resume sessions instead of doing full
// handshakes. A resumed session shows no peer certificate, so runs that look at the certificate
// use a connector that never resumes and always sees it.
type ConnectorKey = `${'verified' | 'insecure'}-${'resuming' | 'fresh'}`;
const connectors = new WeakMap<EgressPolicy, Map<ConnectorKey, buildConnector.connector>>();

function sharedConnector(egress: EgressPolicy, insecure: boolean, resumeSessions: boolean): buildConnector.connector {
  let byKey = connectors.get(egress);
  if (!byKey) {
    byKey = new Map();
    connectors.set(egress, byKey);
  }
  const key: ConnectorKey = `${insecure ? 'insecure' : 'verified'}-${resumeSessions ? 'resuming' : 'fresh'}`;
  let connector = byKey.get(key);
  if (!connector) {
    connector = policyConnector(egress, insecure, resumeSessions);
    byKey.set(key, connector);
  }
  return connector;
}

/**
 * A long-lived pooled Agent over the policy's shared connector, for senders that make many
 * requests at once (notifications, provider and metadata fetches): several connections per
 * origin, unlike a run's dispatcher.
 */
export function sharedDispatcher(egress: EgressPolicy): Agent {
  return new Agent({ pipelining: 1, connect: sharedConnector(egress, false, true) });
}

/** Why a run's dispatcher is destroyed: one error for every run (undici would make one, stack and all, per client). */
export const RUN_OVER = new Error('the run is over');

/**
 * The dispatcher of one run: a bare undici Client for each origin the run talks to (a redirect
 * may lead to another), over the policy's shared connector, destroyed by the caller when the run
 * ends (with `RUN_OVER`). A run owns its connections so that a deadline tears them down for
 * certain (a shared pool reconnects after an aborted request and keeps that socket) and every
 * run really connects to its target. An undici Agent would do the same, listening to each
 * client's events and passing them on, at a cost a fast run's CPU shows (docs/monitoring.md,
 * "A run's exchange without a pool or a body stream"). `onSocket` sees each connection once it
 * is up, always after a full TLS handshake (never a resumed session), so that its peer
 * certificate is there.
 */
export class RunDispatcher extends Dispatcher {
  readonly #clients = new Map<string, Client>();
  readonly #options: Client.Options;

  constructor(egress: EgressPolicy, insecure: boolean, onSocket?: (socket: Socket) => void) {
    super();
    const connect = sharedConnector(egress, insecure, onSocket === undefined);
    this.#options = {
      pipelining: 1,
      // The run's connection goes with the run, so a server's short keep-alive (a few seconds) is
      // no reason to tear the socket down the moment the answer is in: undici would make an error
      // for it, and format its stack, on every run. The dispatcher's destruction closes it right after.
      keepAliveTimeoutThreshold: 0,
      connect: onSocket
        ? (options, callback) =>
            connect(options, (error, socket) => {
              if (!error && socket) onSocket(socket as Socket);
              (callback as (error: Error | null, socket: unknown) => void)(error, socket);
            })
        : connect,
    };
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(options.origin);
    let client = this.#clients.get(origin);
    if (!client) {
      client = new Client(origin, this.#options);
      this.#clients.set(origin, client);
    }
    return client.dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    return settle(Promise.all([...this.#clients.values()].map((client) => client.close())), callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
    const error = typeof first === 'function' ? null : (first ?? null);
    return settle(Promise.all([...this.#clients.values()].map((client) => client.destroy(error))), typeof first === 'function' ? first : callback);
  }
}

/** A dispatcher's promise form, or its callback form when a callback is given. */
function settle(done: Promise<unknown>, callback: (() => void) | undefined): Promise<void> | void {
  const settled = done.then(() => {});
  if (!callback) return settled;
  void settled.then(callback, callback);
}
