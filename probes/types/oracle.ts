import oracledb from 'oracledb';
import { passwordOf } from '../credentials.js';
import { defineSqlProbe } from '../sql-probe.js';
import { ProbeFailure } from '../probe.js';
import { onAbort } from '../abort.js';

const SERVICE_NAME = /^[A-Za-z0-9._$#-]+$/;

/**
 * Oracle Database through `oracledb` in thin mode (pure JavaScript, no Instant Client). The
 * driver opens its socket itself: the target is resolved through the egress policy first and
 * the driver is given the allowed address (the host name only with TLS, which the driver
 * matches against the certificate). The driver takes no abort signal: its connect timeout is
 * set to the check's, so it drops a server that never answers at the same moment.
 */
export const oracleProbe = defineSqlProbe({
  type: 'oracle',
  defaultPort: 1521,
  async connect(check, target, context) {
    const { config } = check;
    const service = config.database ?? '';
    if (!SERVICE_NAME.test(service)) throw new ProbeFailure('the service name (database) must be letters, digits, ".", "_", "$", "#" or "-"');
    const host = config.useTls ? target.host : target.address;
    // A connect descriptor rather than options: only it takes a timeout in fractions of a second.
    const seconds = context.timeoutMs / 1000;
    const descriptor =
      `(DESCRIPTION=(CONNECT_TIMEOUT=${seconds})(TRANSPORT_CONNECT_TIMEOUT=${seconds})(RETRY_COUNT=0)` +
      `(ADDRESS=(PROTOCOL=${config.useTls ? 'TCPS' : 'TCP'})(HOST=${host})(PORT=${target.port}))` +
      `(CONNECT_DATA=(SERVICE_NAME=${service}))` +
      // Thin mode always verifies the certificate chain; ignoreTlsErrors relaxes the name match only.
      `(SECURITY=(SSL_SERVER_DN_MATCH=${config.ignoreTlsErrors ? 'no' : 'yes'})))`;
    const connectPromise = oracledb.getConnection({ user: config.username, password: passwordOf(config), connectString: descriptor });
    // A connection that completes after the deadline is closed at once.
    const stopListening = onAbort(context.signal, () => void connectPromise.then((late) => late.close()).catch(() => {}));
    const connection = await connectPromise.finally(stopListening);
    return {
      query: async (sql) => {
        connection.callTimeout = context.timeoutMs;
        const result = await connection.execute(sql);
        return result.rows?.length ?? result.rowsAffected ?? 0;
      },
      close: () => connection.close(),
      destroy: () =>
        void connection
          .break()
          .finally(() => connection.close())
          .catch(() => {}),
    };
  },
  describe(error, check) {
    const message = (error as { message?: string }).message ?? '';
    // ORA-01017: invalid username/password.
    if (message.startsWith('ORA-01017')) return `authentication failed for user "${check.config.username ?? ''}"`;
    const [first, detail] = message.split('\n');
    // NJS-503 (could not connect) puts the socket's own error on its second line.
    if (first.startsWith('NJS-503') && detail && /^connect E[A-Z]+ \S+$/.test(detail)) return detail;
    // NJS-506 (TLS handshake failure) puts Node's reason on its second line: the certificate's problem.
    if (first.startsWith('NJS-506') && detail) return `${withoutConnectionId(first).replace(/\.$/, '')}: ${detail}`;
    // ORA- and NJS- messages name the service, host and port, never the password; the
    // connection id the driver appends is noise.
    return /^(ORA|NJS|TNS)-\d+/.test(first) ? withoutConnectionId(first) : undefined;
  },
});

const withoutConnectionId = (line: string) => line.replace(/\s*\(CONNECTION_ID=[^)]*\)/, '');
