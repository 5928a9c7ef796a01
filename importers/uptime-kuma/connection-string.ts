// Database connection strings, split into what a check keeps (hosts, user, database, TLS
// options) and whether a password was present (it never carries over). Three spellings occur:
// URLs (postgres://, mysql://, mongodb+srv://, redis://), key=value lists (SQL Server's
// "Server=...;User Id=...", libpq's "host=... dbname=...") and Oracle's Easy Connect
// ("host:port/service"). Nothing here echoes the string: it may hold a password.

/** One server of a connection string. */
export interface ConnectionHost {
  readonly host: string;
  readonly port?: number;
}

/** The parts of a connection string. */
export interface ConnectionParts {
  /** The URL scheme in lowercase (`postgres`, `mongodb+srv`), or undefined for other spellings. */
  readonly scheme?: string;
  readonly hosts: readonly ConnectionHost[];
  readonly user?: string;
  readonly hasPassword: boolean;
  readonly database?: string;
  /** Options (query parameters or key=value pairs), keys lowercased without spaces. */
  readonly options: ReadonlyMap<string, string>;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function parsePort(port: string | undefined): number | null | undefined {
  if (port === undefined || port === '') return undefined;
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535) return null;
  return Number(port);
}

/** `host[:port]` or `[v6][:port]`; null when malformed. */
function parseHost(text: string, separator = ':'): ConnectionHost | null {
  const value = text.trim();
  let host: string;
  let port: string | undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return null;
    host = value.slice(1, end);
    const rest = value.slice(end + 1);
    if (rest !== '' && !rest.startsWith(separator)) return null;
    port = rest === '' ? undefined : rest.slice(1);
  } else {
    const at = value.lastIndexOf(separator);
    const ipv6 = separator === ':' && value.indexOf(':') !== at;
    [host, port] = at < 0 || ipv6 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
  }
  const parsedPort = parsePort(port);
  if (host === '' || /[\s/@?#]/.test(host) || parsedPort === null) return null;
  return parsedPort === undefined ? { host } : { host, port: parsedPort };
}

function queryOptions(query: string): Map<string, string> {
  const options = new Map<string, string>();
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0) options.set(decode(pair.slice(0, eq)).toLowerCase(), decode(pair.slice(eq + 1)));
  }
  return options;
}

/** Parses `scheme://[user[:password]@]host[:port][,host2...][/database][?options]`. */
export function parseUrlConnection(text: string): ConnectionParts | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([\s\S]*)$/i.exec(text.trim());
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  let rest = match[2]!;
  const queryAt = rest.indexOf('?');
  const options = queryAt < 0 ? new Map<string, string>() : queryOptions(rest.slice(queryAt + 1));
  if (queryAt >= 0) rest = rest.slice(0, queryAt);
  // A password may hold an unescaped "/" or "@": the authority runs to the first "/" after the last "@".
  const at = rest.lastIndexOf('@');
  const slash = rest.indexOf('/', at + 1);
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash + 1);
  const userAt = authority.lastIndexOf('@');
  const userInfo = userAt < 0 ? undefined : authority.slice(0, userAt);
  const hostList = userAt < 0 ? authority : authority.slice(userAt + 1);
  const hosts = hostList.split(',').map((host) => parseHost(host));
  if (hosts.length === 0 || hosts.some((host) => host === null)) return undefined;
  const colon = userInfo?.indexOf(':') ?? -1;
  const user = userInfo === undefined ? undefined : decode(colon < 0 ? userInfo : userInfo.slice(0, colon));
  const database = decode(path.replace(/\/+$/, ''));
  return {
    scheme,
    hosts: hosts as ConnectionHost[],
    ...(user ? { user } : {}),
    hasPassword: colon >= 0 && userInfo!.length > colon + 1,
    ...(database ? { database } : {}),
    options,
  };
}

const HOST_KEYS = ['server', 'datasource', 'address', 'addr', 'networkaddress', 'host', 'hostaddr'];
const DATABASE_KEYS = ['database', 'initialcatalog', 'dbname'];
const USER_KEYS = ['userid', 'uid', 'user', 'username'];
const PASSWORD_KEYS = ['password', 'pwd'];

function unquote(value: string): string {
  const trimmed = value.trim();
  if (/^(["']).*\1$/s.test(trimmed) || /^\{.*\}$/s.test(trimmed)) return trimmed.slice(1, -1);
  return trimmed;
}

/**
 * Parses `Key=value;Key=value` (SQL Server) or `key=value key=value` (libpq). The server may be
 * written `tcp:host,port` or `host\instance`; the instance is returned in options as `instance`.
 */
export function parseKeyValueConnection(text: string): ConnectionParts | undefined {
  const pairs = text.includes(';') ? text.split(';') : text.trim().split(/\s+/);
  const options = new Map<string, string>();
  for (const pair of pairs) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) return undefined;
    options.set(pair.slice(0, eq).replace(/\s+/g, '').toLowerCase(), unquote(pair.slice(eq + 1)));
  }
  const pick = (keys: string[]) => keys.map((key) => options.get(key)).find((value) => value !== undefined && value !== '');
  let server = pick(HOST_KEYS);
  if (server === undefined) return undefined;
  server = server.replace(/^tcp:/i, '');
  const backslash = server.indexOf('\\');
  if (backslash >= 0) {
    const [name, port] = server.slice(backslash + 1).split(',');
    options.set('instance', name ?? '');
    server = server.slice(0, backslash) + (port === undefined ? '' : `,${port}`);
  }
  const host = parseHost(server, server.includes(',') ? ',' : ':');
  if (host === null) return undefined;
  const port = parsePort(options.get('port'));
  if (port === null) return undefined;
  const user = pick(USER_KEYS);
  const database = pick(DATABASE_KEYS);
  return {
    hosts: [port === undefined || host.port !== undefined ? host : { ...host, port }],
    ...(user ? { user } : {}),
    hasPassword: pick(PASSWORD_KEYS) !== undefined,
    ...(database ? { database } : {}),
    options,
  };
}

/** Parses Oracle Easy Connect: `[user[/password]@][//]host[:port][/service]`. */
export function parseEasyConnect(text: string): ConnectionParts | undefined {
  let rest = text.trim();
  let user: string | undefined;
  let hasPassword = false;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const credentials = rest.slice(0, at);
    const slash = credentials.indexOf('/');
    user = slash < 0 ? credentials : credentials.slice(0, slash);
    hasPassword = slash >= 0 && credentials.length > slash + 1;
    rest = rest.slice(at + 1);
  }
  rest = rest.replace(/^\/\//, '');
  const slash = rest.indexOf('/');
  const host = parseHost(slash < 0 ? rest : rest.slice(0, slash));
  if (host === null) return undefined;
  const database = slash < 0 ? undefined : rest.slice(slash + 1).split(/[/:]/)[0];
  return {
    hosts: [host],
    ...(user ? { user } : {}),
    hasPassword,
    ...(database ? { database } : {}),
    options: new Map(),
  };
}
