import pg, { type ClientConfig, type DatabaseError } from 'pg';
import { passwordOf } from '../credentials.js';
import { defineSqlProbe } from '../sql-probe.js';
import { onAbort } from '../abort.js';

/** PostgreSQL through `pg` (node-postgres), the driver the daemon itself uses. */
export const postgresProbe = defineSqlProbe({
  type: 'postgres',
  defaultPort: 5432,
  async connect(check, target, context) {
    const { config } = check;
    const options: ClientConfig = {
      host: target.address,
      port: target.port,
      user: config.username,
      password: passwordOf(config),
      database: config.database,
      ssl: config.useTls ? { servername: target.servername, rejectUnauthorized: !config.ignoreTlsErrors } : false,
      connectionTimeoutMillis: context.timeoutMs,
      query_timeout: context.timeoutMs,
      application_name: 'svc',
    };
    const client = new pg.Client(options);
    // pg has no destroy: dropping its socket (plain or TLS, whichever is current) ends the run.
    const stream = () => (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream;
    const stopListening = onAbort(context.signal, () => stream().destroy());
    client.on('error', () => {}); // a socket error after sign-in surfaces through the pending query
    try {
      await client.connect();
    } finally {
      stopListening();
    }
    return {
      query: async (sql) => (await client.query(sql)).rowCount ?? 0,
      close: () => client.end(),
      destroy: () => stream().destroy(),
    };
  },
  describe(error, check) {
    const { code, message } = error as Partial<DatabaseError>;
    const user = check.config.username ?? '';
    // SQLSTATE 28P01 is invalid_password; 28000 (no pg_hba entry, unknown role) keeps the server's words.
    if (code === '28P01') return `authentication failed for user "${user}"`;
    if (message?.includes('client password must be a string')) return `the server asks user "${user}" for a password, and the check has none`;
    return code && message ? message : undefined;
  },
});
