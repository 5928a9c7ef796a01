import { createClient } from 'redis';
import { passwordOf } from '../credentials.js';
import { networkFailure } from '../connection-errors.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { failureMessage } from '../failure-message.js';
import { resolveTarget } from '../target-address.js';
import { onAbort } from '../abort.js';

/** Redis (and Valkey) through `redis` (node-redis), the client maintained by Redis itself. */
export const redisProbe = defineProbe({
  type: 'redis',
  async run(check, context) {
    const { config } = check;
    const target = await resolveTarget(check.target, 6379, context);
    const tls = config.useTls ? { tls: true as const, servername: target.servername, rejectUnauthorized: !config.ignoreTlsErrors } : { tls: false as const };
    const client = createClient({
      socket: { host: target.address, port: target.port, ...tls, connectTimeout: context.timeoutMs, reconnectStrategy: false },
      username: config.username,
      password: passwordOf(config),
      database: config.database,
      // One run, one connection: nothing is queued while offline, nothing is retried.
      disableOfflineQueue: true,
    });
    client.on('error', () => {}); // each failure also rejects the pending call, which says it
    const stopListening = onAbort(context.signal, () => client.destroy());
    try {
      await client.connect();
      const answer = await client.ping();
      if (answer !== 'PONG') throw new ProbeFailure(`PING answered ${JSON.stringify(answer).slice(0, 60)}, expected PONG`);
      return { message: config.database ? `PONG from database ${config.database}` : 'PONG' };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw networkFailure(error, target.host, target.port) ?? new ProbeFailure(describe(failureMessage(error), config.username));
    } finally {
      stopListening();
      if (client.isOpen && !context.signal.aborted) client.destroy();
    }
  },
});

/** Redis error replies start with a code word: the ones about signing in get a plain sentence. */
function describe(message: string, username: string | undefined): string {
  if (message.startsWith('WRONGPASS') || message.startsWith('ERR invalid password')) {
    return username ? `authentication failed for user "${username}"` : 'authentication failed';
  }
  if (message.startsWith('NOAUTH')) return 'the server requires a password, and the check has none';
  if (message.includes('without any password configured')) return 'the check sends a password, and the server has none configured';
  return message;
}
