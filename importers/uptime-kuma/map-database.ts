import type { CheckTypeName } from '../../checks/index.js';
import { isRecord, type ItemScope } from '../converter.js';
import { parseEasyConnect, parseKeyValueConnection, parseUrlConnection, type ConnectionParts } from './connection-string.js';
import { hostPort, own, referSecret, type SkipItem, type TypeMapping } from './mapping.js';
import { flag, json, text, type MonitorRecord } from './monitor-record.js';
import { importUserName } from '../shared/user-name.js';

const FIELD = 'database_connection_string';
const TRUE = new Set(['true', 'yes', '1', 'required', 'require', 'strict', 'mandatory']);

interface Engine {
  readonly type: CheckTypeName;
  readonly example: string;
  readonly schemes: readonly string[];
  parse(text: string): ConnectionParts | undefined;
  /** TLS settings implied by the connection options. */
  tls(parts: ConnectionParts): { useTls?: boolean; ignoreTlsErrors?: boolean };
}

function option(parts: ConnectionParts, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = parts.options.get(key);
    if (value !== undefined) return value.toLowerCase();
  }
  return undefined;
}

const ENGINES: Readonly<Record<string, Engine>> = {
  postgres: {
    type: 'postgres',
    example: 'postgres://user@host:5432/database',
    schemes: ['postgres', 'postgresql'],
    parse: (value) => parseUrlConnection(value) ?? parseKeyValueConnection(value),
    tls(parts) {
      const mode = option(parts, 'sslmode');
      if (mode === 'verify-ca' || mode === 'verify-full') return { useTls: true };
      if (mode === 'require' || mode === 'no-verify') return { useTls: true, ignoreTlsErrors: true };
      return { useTls: TRUE.has(option(parts, 'ssl') ?? '') };
    },
  },
  mysql: {
    type: 'mysql',
    example: 'mysql://user@host:3306/database',
    schemes: ['mysql', 'mariadb'],
    parse: parseUrlConnection,
    tls: (parts) => ({ useTls: TRUE.has(option(parts, 'ssl', 'ssl-mode', 'sslmode') ?? '') }),
  },
  sqlserver: {
    type: 'mssql',
    example: 'Server=host,1433;Database=name;User Id=user;Encrypt=true',
    schemes: ['mssql', 'sqlserver'],
    parse: (value) => parseKeyValueConnection(value) ?? parseUrlConnection(value),
    tls: (parts) => ({
      useTls: TRUE.has(option(parts, 'encrypt') ?? ''),
      ignoreTlsErrors: TRUE.has(option(parts, 'trustservercertificate') ?? ''),
    }),
  },
  mongodb: {
    type: 'mongodb',
    example: 'mongodb://user@host:27017/database',
    schemes: ['mongodb', 'mongodb+srv'],
    parse: parseUrlConnection,
    tls(parts) {
      const tls = option(parts, 'tls', 'ssl');
      const insecure = option(parts, 'tlsinsecure', 'tlsallowinvalidcertificates');
      return {
        useTls: tls === undefined ? parts.scheme === 'mongodb+srv' : TRUE.has(tls),
        ignoreTlsErrors: TRUE.has(insecure ?? ''),
      };
    },
  },
  redis: {
    type: 'redis',
    example: 'redis://user@host:6379/0',
    schemes: ['redis', 'rediss'],
    parse: parseUrlConnection,
    tls: (parts) => ({ useTls: parts.scheme === 'rediss' }),
  },
  oracledb: {
    type: 'oracle',
    example: 'host:1521/SERVICE',
    schemes: [],
    parse: parseEasyConnect,
    tls: () => ({}),
  },
};

function commandOf(monitor: MonitorRecord, scope: ItemScope): Record<string, unknown> | undefined {
  const parsed = json(monitor, 'database_query');
  if (parsed === undefined) return undefined;
  if (parsed.ok && isRecord(parsed.value)) return parsed.value;
  scope.warn('UNSUPPORTED_SETTING', 'the command is not a JSON object and was left out; the check sends ping', monitor.field('database_query'));
  return undefined;
}

function engineConfig(engine: Engine, parts: ConnectionParts, monitor: MonitorRecord, scope: ItemScope): Record<string, unknown> {
  const config: Record<string, unknown> = { username: importUserName(parts.user, scope, monitor.field(FIELD)), ...engine.tls(parts) };
  if (engine.type === 'redis') {
    const database = parts.database === undefined ? undefined : Number(parts.database);
    if (database !== undefined && Number.isInteger(database) && database >= 0 && database <= 255) config.database = database;
    else if (parts.database !== undefined) {
      scope.warn('UNSUPPORTED_SETTING', 'the database in the connection string is not a number from 0 to 255; 0 is used', monitor.field(FIELD));
    }
    config.ignoreTlsErrors = flag(monitor, 'ignore_tls');
    return config;
  }
  config.database = parts.database;
  if (engine.type === 'mongodb') {
    config.srv = parts.scheme === 'mongodb+srv';
    config.command = commandOf(monitor, scope);
    if (text(monitor, 'json_path') !== undefined) {
      scope.warn('UNSUPPORTED_SETTING', 'a JSON query on the command result has no equivalent; the check fails only on errors', monitor.field('json_path'));
    }
    return config;
  }
  const query = text(monitor, 'database_query');
  if (query !== undefined && query.length > 65_536) {
    scope.warn('UNSUPPORTED_SETTING', 'the query is too long and was left out', monitor.field('database_query'));
  } else config.query = query;
  return config;
}

/** Database monitors (sqlserver, postgres, mysql, mongodb, oracledb, redis): the connection string split up. */
export function mapDatabase(monitor: MonitorRecord, scope: ItemScope): TypeMapping | SkipItem {
  const engine = own(ENGINES, text(monitor, 'type') ?? '');
  if (engine === undefined) return { skip: 'UNSUPPORTED_TYPE', message: 'unknown database engine', field: monitor.field('type') };
  const connection = text(monitor, FIELD);
  const field = monitor.field(FIELD);
  if (connection === undefined) return { skip: 'INVALID_ITEM', message: 'the monitor has no connection string', field };
  const parts = engine.parse(connection);
  const schemeOk = parts?.scheme === undefined || engine.schemes.includes(parts.scheme);
  if (parts === undefined || !schemeOk) {
    return { skip: 'INVALID_ITEM', message: `the connection string cannot be read (expected something like ${engine.example})`, field };
  }
  const config = engineConfig(engine, parts, monitor, scope);
  if (parts.hasPassword) config.password = scope.secretFor('PASSWORD', 'the password in the connection string', field);
  else if (engine.type === 'postgres' && !parts.options.has('password')) {
    // server/monitor-types/postgres.js rejects a connection string without a password before connecting.
    scope.warn(
      'UNSUPPORTED_SETTING',
      'the connection string has no password: Uptime Kuma fails every check of it ("Password is undefined."), the check connects without one and is up when the server lets it in',
      field,
    );
  }
  if (engine.type === 'oracle') {
    // The tool keeps Oracle's user and password beside the Easy Connect string.
    config.username ??= importUserName(text(monitor, 'basic_auth_user'), scope, monitor.field('basic_auth_user'));
    config.password ??= referSecret(monitor, scope, 'basic_auth_pass', 'PASSWORD', 'the database password');
  }
  if (engine.type === 'mysql') {
    // The tool's MySQL form keeps its password field in the radius_password column.
    config.password ??= referSecret(monitor, scope, 'radius_password', 'PASSWORD', 'the database password');
  }
  if (parts.hosts.length > 1) {
    scope.warn('UNSUPPORTED_SETTING', `only the first of ${parts.hosts.length} servers is checked`, field);
  }
  if (parts.options.get('instance')) {
    scope.warn('UNSUPPORTED_SETTING', 'named instances have no equivalent; give the instance port in the target instead', field);
  }
  // MySQL, SQL Server and Oracle monitors may test the query's single value against conditions
  // (server/monitor-types/mysql.js, mssql.js, oracledb.js); the check only runs the query.
  const conditions = json(monitor, 'conditions');
  if (conditions !== undefined && !(conditions.ok && Array.isArray(conditions.value) && conditions.value.length === 0)) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      "the conditions on the query's result have no equivalent and were left out: the check is up whatever the query returns",
      monitor.field('conditions'),
    );
  }
  const [first] = parts.hosts;
  return { type: engine.type, target: hostPort(first!.host, first!.port), config };
}
