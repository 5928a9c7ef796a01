import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Real servers for the probe suites: Debian's services (started when installed but stopped)
// and private instances in temporary folders (for password-protected cases).

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function portAnswers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answers: boolean) => {
      socket.destroy();
      resolve(answers);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Waits until `port` answers, or throws after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 30_000, what = `port ${port}`): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await portAnswers(port))) {
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Where freePort looks: below Linux's ephemeral range (32768-60999), from which the kernel takes
 * the local port of every outgoing connection and of every listener on port 0. A port of the
 * ephemeral range found free could be taken by any connection of a test running meanwhile
 * before the caller binds it (a daemon then fails with "already in use"); one below it only by
 * another caller picking the same port.
 */
const FREE_PORTS = { first: 20_000, last: 32_767 };

/** A TCP port nobody listens on right now, for a server whose address must be known before it starts. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = FREE_PORTS.first + Math.floor(Math.random() * (FREE_PORTS.last - FREE_PORTS.first + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${FREE_PORTS.first} and ${FREE_PORTS.last}`);
}

/** Whether a server can listen on 127.0.0.1:`port` now (it is closed again at once). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Whether a server needed by a suite is there; `reason` says what is missing when it is not. */
export interface ServerAvailability {
  ok: boolean;
  reason?: string;
}

/**
 * Makes sure the Debian service `initScript` answers on `port`: starts it when it is installed
 * but stopped. When it is not installed, the suite is skipped, except under CI=true, where
 * this throws so that the suite fails instead of passing silently.
 */
export async function ensureService(initScript: string, port: number): Promise<ServerAvailability> {
  if (await portAnswers(port)) return { ok: true };
  const script = `/etc/init.d/${initScript}`;
  if (existsSync(script)) {
    spawnSync(script, ['start'], { stdio: 'ignore', timeout: 120_000 });
    await waitForPort(port, 60_000, `${initScript} on port ${port}`).catch(() => {});
    if (await portAnswers(port)) return { ok: true };
  }
  return missing(`${initScript} does not answer on 127.0.0.1:${port} (apt-get install ${initScript}?)`);
}

/** Whether the program `name` is on this machine (a full path or a name on PATH). */
export function requireProgram(name: string): ServerAvailability {
  const found = name.includes('/') ? existsSync(name) : spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
  return found ? { ok: true } : missing(`${name} is not installed`);
}

function missing(reason: string): ServerAvailability {
  if (process.env.CI === 'true') throw new Error(`CI=true requires ${reason}`);
  console.warn(`[svc tests] skipped: ${reason}`);
  return { ok: false, reason };
}

/** A server process the test started, stopped (and its folder removed) by `stop`. */
export interface PrivateServer {
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** A temporary folder; owned by `owner` when given (servers that refuse to run as root). */
export function tempDir(prefix: string, owner?: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (owner) {
    const id = (flag: string) => Number(spawnSync('id', [flag, owner], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  return dir;
}

/** Starts `command` in the foreground, waits for `port`, and stops it with SIGTERM. */
export async function spawnServer(command: string, args: string[], port: number, dir: string): Promise<PrivateServer> {
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([waitForPort(port, 30_000, command), exited.then(() => Promise.reject(new Error(`${command} exited: ${stderr.trim()}`)))]);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    dir,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `command` as `user` when this process is root (PostgreSQL refuses to run as root). */
function asUser(user: string, command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
}

/** Debian's PostgreSQL server binaries (the newest installed version). */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = spawnSync('ls', [root], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, 'bin') : undefined;
}

/**
 * A self-signed certificate for `localhost` and 127.0.0.1 (made with Debian's openssl) in `dir`,
 * readable only by `owner` (servers refuse a key others can read).
 */
export function selfSignedCertificate(dir: string, owner?: string): { cert: string; key: string } {
  const cert = join(dir, 'server.crt');
  const key = join(dir, 'server.key');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  chmodSync(key, 0o600);
  if (owner) spawnSync('chown', [owner, cert, key]);
  return { cert, key };
}

/**
 * A private PostgreSQL cluster with password (SCRAM) authentication on 127.0.0.1, whose superuser
 * `postgres` has `password`, and TLS with a self-signed certificate: the shared test server
 * trusts every local connection, so only a cluster of our own can refuse a wrong password.
 */
export async function startPrivatePostgres(password: string): Promise<PrivateServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed');
  const owner = process.getuid?.() === 0 ? 'postgres' : undefined;
  const dir = tempDir('svc-pg-', owner);
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  spawnSync('sh', ['-c', `umask 077 && printf '%s' "$PW" > ${pwfile}`], { env: { ...process.env, PW: password } });
  if (owner) spawnSync('chown', [owner, pwfile]);
  const [initCommand, initArgs] = asUser(owner ?? '', join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '--no-sync',
  ]);
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const { cert, key } = selfSignedCertificate(dir, owner);
  const [command, args] = asUser(owner ?? '', join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'ssl=on',
    '-c',
    `ssl_cert_file=${cert}`,
    '-c',
    `ssl_key_file=${key}`,
  ]);
  return spawnServer(command, args, port, dir);
}

/** A private redis-server: plain on `port`, TLS on `tlsPort`. */
export interface PrivateRedis extends PrivateServer {
  tlsPort: number;
}

/** A private redis-server that requires `password` (AUTH), plain and over TLS (self-signed). */
export async function startPrivateRedis(password: string): Promise<PrivateRedis> {
  const [port, tlsPort] = [await freePort(), await freePort()];
  const dir = tempDir('svc-redis-');
  const { cert, key } = selfSignedCertificate(dir);
  const server = await spawnServer(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--requirepass',
      password,
      '--tls-port',
      String(tlsPort),
      '--tls-cert-file',
      cert,
      '--tls-key-file',
      key,
      '--tls-auth-clients',
      'no',
    ],
    port,
    dir,
  );
  await waitForPort(tlsPort, 10_000, 'redis-server TLS');
  return { ...server, tlsPort };
}

/** A private mosquitto: plain MQTT on `port`; WebSocket, TLS and WebSocket over TLS on their own ports. */
export interface PrivateMosquitto extends PrivateServer {
  websocketPort: number;
  tlsPort: number;
  secureWebsocketPort: number;
}

/** A private mosquitto that admits only `username` with `password`, on every listener. */
export async function startPrivateMosquitto(username: string, password: string): Promise<PrivateMosquitto> {
  const [port, websocketPort, tlsPort, secureWebsocketPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // Started as root, mosquitto drops to its own user before it reads the password file.
  const owner = process.getuid?.() === 0 ? 'mosquitto' : undefined;
  const dir = tempDir('svc-mqtt-', owner);
  const passwords = join(dir, 'passwords');
  const made = spawnSync('mosquitto_passwd', ['-c', '-b', passwords, username, password], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
  if (owner) spawnSync('chown', [owner, passwords]);
  const { cert, key } = selfSignedCertificate(dir, owner);
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      'allow_anonymous false',
      `password_file ${passwords}`,
      'persistence false',
      `listener ${port} 127.0.0.1`,
      `listener ${websocketPort} 127.0.0.1`,
      'protocol websockets',
      `listener ${tlsPort} 127.0.0.1`,
      `certfile ${cert}`,
      `keyfile ${key}`,
      // Reached by name (localhost), which may resolve to ::1 or 127.0.0.1: every loopback address.
      `listener ${secureWebsocketPort}`,
      'bind_interface lo',
      'protocol websockets',
      `certfile ${cert}`,
      `keyfile ${key}`,
      '',
    ].join('\n'),
  );
  const server = await spawnServer('mosquitto', ['-c', conf], port, dir);
  await waitForPort(websocketPort, 10_000, 'mosquitto websockets');
  await waitForPort(tlsPort, 10_000, 'mosquitto TLS');
  await waitForPort(secureWebsocketPort, 10_000, 'mosquitto WebSocket over TLS');
  return { ...server, websocketPort, tlsPort, secureWebsocketPort };
}

/** RabbitMQ with its management API on 127.0.0.1:15672 (the plugin enabled when it is not). */
export async function ensureRabbitmqManagement(): Promise<ServerAvailability> {
  const broker = await ensureService('rabbitmq-server', 5672);
  if (!broker.ok || (await portAnswers(15672))) return broker;
  spawnSync('rabbitmq-plugins', ['enable', 'rabbitmq_management'], { stdio: 'ignore', timeout: 120_000 });
  await waitForPort(15672, 60_000, 'the RabbitMQ management API').catch(() => {});
  return (await portAnswers(15672)) ? { ok: true } : missing('the RabbitMQ management plugin (rabbitmq-plugins enable rabbitmq_management)');
}
