import { connect as netConnect } from 'node:net';
import mysql from 'mysql2';
import { passwordOf } from '../credentials.js';
import { defineSqlProbe } from '../sql-probe.js';
import { onAbort } from '../abort.js';

/** MySQL and MariaDB through `mysql2`, the maintained, pure-JavaScript MySQL protocol client. */
export const mysqlProbe = defineSqlProbe({
  type: 'mysql',
  defaultPort: 3306,
  async connect(check, target, context) {
    const { config } = check;
    const connection = mysql.createConnection({
      // The socket goes to the address the egress policy allowed; `host` stays the name, for TLS.
      host: target.host,
      port: target.port,
      stream: () => netConnect({ host: target.address, port: target.port }),
      user: config.username,
      password: passwordOf(config),
      database: config.database,
      ssl: config.useTls
        ? { rejectUnauthorized: !config.ignoreTlsErrors, verifyIdentity: !config.ignoreTlsErrors && target.servername !== undefined }
        : undefined,
      connectTimeout: context.timeoutMs,
    });
    connection.on('error', () => {}); // a socket error after sign-in surfaces through the pending query
    const stopListening = onAbort(context.signal, () => connection.destroy());
    try {
      await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
    } finally {
      stopListening();
    }
    return {
      query: (sql) =>
        new Promise<number>((resolve, reject) =>
          connection.query({ sql, timeout: context.timeoutMs }, (error, rows) => (error ? reject(error) : resolve(Array.isArray(rows) ? rows.length : 0))),
        ),
      close: () => new Promise<void>((resolve) => connection.end(() => resolve())),
      destroy: () => connection.destroy(),
    };
  },
  describe(error, check) {
    const { code, sqlMessage } = error as { code?: string; sqlMessage?: string };
    if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR') {
      return `authentication failed for user "${check.config.username ?? ''}"`;
    }
    return sqlMessage || undefined;
  },
});
