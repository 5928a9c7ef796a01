import { connect as netConnect, type Socket } from 'node:net';
import { Connection, Request, type ConnectionConfiguration } from 'tedious';
import { passwordOf } from '../credentials.js';
import { ProbeFailure } from '../probe.js';
import { defineSqlProbe } from '../sql-probe.js';
import { formatHostPort } from '../target.js';
import { onAbort } from '../abort.js';

/** Microsoft SQL Server through `tedious`, the maintained pure-JavaScript TDS client. */
export const mssqlProbe = defineSqlProbe({
  type: 'mssql',
  defaultPort: 1433,
  async connect(check, target, context) {
    const { config } = check;
    let socket: Socket | undefined;
    const options: ConnectionConfiguration = {
      // `server` stays the name (TLS checks the certificate against it); the socket goes to the
      // address the egress policy allowed.
      server: target.host,
      authentication: { type: 'default', options: { userName: config.username, password: passwordOf(config) } },
      options: {
        port: target.port,
        database: config.database,
        encrypt: config.useTls,
        trustServerCertificate: config.ignoreTlsErrors,
        connectTimeout: context.timeoutMs,
        requestTimeout: context.timeoutMs,
        appName: 'svc',
        connector: () =>
          new Promise<Socket>((resolve, reject) => {
            socket = netConnect({ host: target.address, port: target.port });
            socket.once('connect', () => resolve(socket as Socket));
            socket.once('error', reject);
          }),
      },
    };
    const connection: Connection = new Connection(options);
    connection.on('error', () => {}); // a socket error after sign-in surfaces through the pending request
    const destroy = () => {
      socket?.destroy();
      connection.close();
    };
    const stopListening = onAbort(context.signal, destroy);
    try {
      await new Promise<void>((resolve, reject) => {
        connection.connect((error) => (error ? reject(error) : resolve()));
      });
    } finally {
      stopListening();
    }
    return {
      query: (sql) =>
        new Promise<number>((resolve, reject) => {
          let rows = 0;
          // tedious leaves a request pending when the server drops the connection under it.
          const lost = () => reject(new ProbeFailure(`connection closed by ${formatHostPort(target)}`));
          connection.once('end', lost);
          const request = new Request(sql, (error) => {
            connection.off('end', lost);
            if (error) reject(error);
            else resolve(rows);
          });
          request.on('row', () => (rows += 1));
          connection.execSqlBatch(request); // a plain batch: the query has no parameters
        }),
      close: () =>
        new Promise<void>((resolve) => {
          if (connection.closed) return resolve();
          connection.once('end', () => resolve());
          connection.close();
        }),
      destroy,
    };
  },
  describe(error, check) {
    const { code, message } = error as { code?: string; message?: string };
    // Error 18456 reads "Login failed for user 'x'."; other ELOGIN errors (an unknown database)
    // and EREQUEST (the query) carry the server's own text, which names no password.
    // The server answered ENCRYPT_REQ to a client that does not encrypt (MS-TDS 2.2.6.5);
    // tedious names its own option, the check's is useTls.
    if (code === 'EENCRYPT') return 'the server requires encryption (turn on useTls)';
    if (code === 'ELOGIN' && message?.startsWith('Login failed for user')) {
      return `authentication failed for user "${check.config.username ?? ''}"`;
    }
    return (code === 'ELOGIN' || code === 'EREQUEST') && message ? message : undefined;
  },
});
