import { MongoClient, type MongoClientOptions } from 'mongodb';
import { passwordOf } from '../credentials.js';
import { networkFailure } from '../connection-errors.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { failureMessage } from '../failure-message.js';
import { resolveTarget } from '../target-address.js';
import { formatHostPort, parseHostPort } from '../target.js';
import { onAbort } from '../abort.js';
import { startEgressSocksProxy, type EgressSocksProxy } from '../egress-socks-proxy.js';

/**
 * MongoDB through `mongodb`, the official driver: connects (directly to the target, or to the
 * deployment its SRV record names), signs in when a user is set, and runs the command
 * (`{ping: 1}` by default) on the database (admin by default). The driver connects through a
 * SOCKS5 proxy of the run (probes/egress-socks-proxy.ts), so every server it is about to use,
 * members named by SRV records or announced in a server's `hello` included, by name or by IP
 * address, is judged by the egress policy before any connection to it is opened.
 */
export const mongodbProbe = defineProbe({
  type: 'mongodb',
  async run(check, context) {
    const { config } = check;
    const { host, port } = parseHostPort(check.target, 27017);
    // A plain target is resolved first, so that a refused address reads as such at once rather
    // than as a server selection timeout. An SRV name has no address of its own.
    if (!config.srv) await resolveTarget(check.target, 27017, context);
    const uri = config.srv ? `mongodb+srv://${host}/` : `mongodb://${formatHostPort({ host, port })}/`;
    const password = passwordOf(config);
    const proxy = await startEgressSocksProxy(context.egress);
    const client = egressMongoClient(uri, proxy, {
      directConnection: !config.srv,
      auth: config.username ? { username: config.username, password } : undefined,
      // mongodb+srv turns TLS on by default, as the driver does; otherwise useTls decides.
      ...(config.srv && !config.useTls ? {} : { tls: config.useTls }),
      tlsAllowInvalidCertificates: config.ignoreTlsErrors,
      tlsAllowInvalidHostnames: config.ignoreTlsErrors,
      serverSelectionTimeoutMS: context.timeoutMs,
      connectTimeoutMS: context.timeoutMs,
      socketTimeoutMS: context.timeoutMs,
      maxPoolSize: 1,
      appName: 'svc',
    });
    const stopListening = onAbort(context.signal, () => {
      void client.close().catch(() => {});
      void proxy.close();
    });
    const command = config.command ?? { ping: 1 };
    const name = Object.keys(command)[0] ?? 'command';
    // The driver keeps retrying an unreachable server until serverSelectionTimeoutMS; a direct
    // connection has no other server to wait for, so its first failed handshake ends the run.
    const unreachable = new Promise<never>((_, reject) => {
      if (!config.srv) client.once('serverHeartbeatFailed', (event) => reject(event.failure));
    });
    unreachable.catch(() => {});
    try {
      await Promise.race([client.connect(), unreachable]);
      const reply = await client.db(config.database ?? 'admin').command(command, { timeoutMS: context.timeoutMs });
      if (reply.ok !== 1) throw new ProbeFailure(`${name} answered ok: ${String(reply.ok)}`);
      return { message: `${name} ok` };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      if (error instanceof ProbeFailure) throw error;
      // What the proxy saw is the truth about the connections: the driver only hears a SOCKS reply.
      if (proxy.refusals.length > 0) throw new ProbeFailure(proxy.refusals[0]);
      const connectError = proxy.connectErrors[0];
      if (connectError) throw networkFailure(connectError, host, port) ?? new ProbeFailure(failureMessage(connectError));
      throw networkFailure(serverError(error), host, port) ?? new ProbeFailure(describe(error, config.username, name));
    } finally {
      stopListening();
      if (!context.signal.aborted) await client.close().catch(() => {});
      await proxy.close();
    }
  },
});

/** A client whose every connection, to any server it discovers, goes through the run's egress proxy. */
export function egressMongoClient(uri: string, proxy: EgressSocksProxy, options: MongoClientOptions): MongoClient {
  return new MongoClient(uri, { ...options, proxyHost: proxy.host, proxyPort: proxy.port });
}

/** A server selection failure carries the real error of the server it tried. */
function serverError(error: unknown): unknown {
  const servers = (error as { reason?: { servers?: Map<string, { error?: unknown }> } }).reason?.servers;
  for (const server of servers?.values() ?? []) if (server.error) return server.error;
  return error;
}

function describe(error: unknown, username: string | undefined, command: string): string {
  const cause = serverError(error) as { code?: unknown; codeName?: unknown; errmsg?: unknown; name?: string };
  if (cause.code === 18 || cause.codeName === 'AuthenticationFailed') return `authentication failed for user "${username ?? ''}"`;
  if (typeof cause.errmsg === 'string' || typeof cause.codeName === 'string') {
    return `${command} failed: ${String(cause.errmsg ?? cause.codeName)}`;
  }
  return failureMessage(cause);
}
