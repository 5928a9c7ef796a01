import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';

// Uptime Kuma as its web UI drives it: started from a source tree with a data directory of its
// own and the loopback guard preloaded, its first user set up and signed in over socket.io, each
// monitor added with the `add` event and the payload of src/pages/EditMonitor.vue, and every
// heartbeat it sends recorded.

const GUARD = fileURLToPath(new URL('./loopback-guard.js', import.meta.url));
const USER = 'parity';
const PASSWORD = 'Parity-run-2.5.3!';

/** Kuma's heartbeat statuses (src/util.ts). */
export const KUMA_STATUS: Record<number, string> = { 0: 'down', 1: 'up', 2: 'pending', 3: 'maintenance' };

export interface Beat {
  monitorID: number;
  status: number;
  msg: string;
  time: string;
}

export interface Kuma {
  /** The data directory: kuma.db is in it. */
  dataDir: string;
  port: number;
  /** Kuma's process, for its CPU and memory in /proc. */
  pid: number;
  socket: Socket;
  /** Every heartbeat received, by monitor id, oldest first. */
  beats: Map<number, Beat[]>;
  /** `add` with EditMonitor.vue's defaults under `monitor`; answers the new monitor's id. */
  add(monitor: Record<string, unknown>): Promise<number>;
  /** Adds a Docker host on a Unix socket as its settings dialog does (`addDockerHost`); answers its id. */
  addDockerHost(name: string, socketPath: string): Promise<number>;
  /** Stops Kuma (SIGINT: it closes its database) and waits for it to exit. */
  stop(): Promise<void>;
}

/** src/pages/EditMonitor.vue `monitorDefaults` (tag 2.5.3), with a timeout as its interval watcher sets it. */
export const MONITOR_DEFAULTS: Record<string, unknown> = {
  type: 'http',
  name: '',
  parent: null,
  url: 'https://',
  wsSubprotocol: '',
  method: 'GET',
  protocol: null,
  location: 'world',
  ipFamily: null,
  interval: 60,
  retryInterval: 60,
  resendInterval: 0,
  maxretries: 0,
  retryOnlyOnStatusCodeFailure: false,
  notificationIDList: {},
  ignoreTls: false,
  upsideDown: false,
  expiryNotification: false,
  domainExpiryNotification: true,
  maxredirects: 10,
  accepted_statuscodes: ['200-299'],
  saveResponse: false,
  saveErrorResponse: true,
  responseMaxLength: 1024,
  dns_resolve_type: 'A',
  dns_resolve_server: '',
  docker_container: '',
  docker_host: null,
  proxyId: null,
  basic_auth_user: '',
  basic_auth_pass: '',
  bearer_token: '',
  mqttUsername: '',
  mqttPassword: '',
  mqttTopic: '',
  mqttWebsocketPath: '',
  mqttSuccessMessage: '',
  mqttCheckType: 'keyword',
  authMethod: null,
  oauth_auth_method: 'client_secret_basic',
  httpBodyEncoding: 'json',
  kafkaProducerBrokers: [],
  kafkaProducerSaslOptions: { mechanism: 'None' },
  cacheBust: false,
  kafkaProducerSsl: false,
  kafkaProducerAllowAutoTopicCreation: false,
  gamedigGivenPortOnly: true,
  gamedigToken: '',
  remote_browser: null,
  screenshot_delay: 0,
  rabbitmqNodes: [],
  rabbitmqUsername: '',
  rabbitmqPassword: '',
  conditions: [],
  system_service_name: '',
  ntpStratumThreshold: 5,
  ntpTimeOffsetThreshold: 1000,
  ntpRootDispersionThreshold: 500,
  timeout: 48,
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A tree that is the source tree, entry by entry (symbolic links), with a placeholder
 * dist/index.html: the server refuses to start without the built web UI, which the run never uses.
 */
function runTree(kumaDir: string, root: string): string {
  const tree = join(root, 'tree');
  mkdirSync(join(tree, 'dist'), { recursive: true });
  for (const entry of readdirSync(kumaDir)) {
    if (entry !== 'dist' && entry !== 'data') symlinkSync(join(kumaDir, entry), join(tree, entry));
  }
  const built = join(kumaDir, 'dist', 'index.html');
  if (!existsSync(built)) writeFileSync(join(tree, 'dist', 'index.html'), '<!doctype html><title>Uptime Kuma</title>');
  else symlinkSync(built, join(tree, 'dist', 'index.html'));
  return tree;
}

function emit<T>(socket: Socket, event: string, ...args: unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Kuma did not answer ${event}`)), 180_000);
    socket.emit(event, ...args, (answer: T) => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}

async function waitForListening(child: ChildProcess, output: () => string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const started = Date.now();
    child.once('exit', (code) => reject(new Error(`Kuma exited (${code}):\n${output().slice(-3000)}`)));
    const check = () => {
      // The first "Listening on" is the page shown while the database migrates; the server's own comes after.
      if (
        output()
          .split('\n')
          .some((line) => line.includes('Listening on') && line.includes('SERVER'))
      )
        return resolve();
      if (Date.now() - started > 180_000) return reject(new Error(`Kuma did not start in 3 minutes:\n${output().slice(-3000)}`));
      setTimeout(check, 200);
    };
    check();
  });
  child.removeAllListeners('exit');
}

/** Starts Kuma from `kumaDir` with its data in `root`, sets up its user and signs in. */
export async function startKuma(kumaDir: string, root: string, log: (line: string) => void): Promise<Kuma> {
  if (!existsSync(join(kumaDir, 'server', 'server.js')) || !existsSync(join(kumaDir, 'node_modules'))) {
    throw new Error(`${kumaDir} is not a prepared Uptime Kuma tree (server/server.js and node_modules/ are needed; see docs/import.md)`);
  }
  const tree = runTree(kumaDir, root);
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', GUARD, 'server/server.js'], {
    cwd: tree,
    env: {
      ...process.env,
      DATA_DIR: `${dataDir}/`,
      UPTIME_KUMA_DB_TYPE: 'sqlite',
      UPTIME_KUMA_HOST: '127.0.0.1',
      UPTIME_KUMA_PORT: String(port),
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const logFile = join(root, 'kuma.log');
  const collect = (chunk: Buffer) => {
    appendFileSync(logFile, chunk);
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  // Kuma goes when the run ends, however it ends.
  process.once('exit', () => child.kill('SIGKILL'));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  log(`starting Uptime Kuma from ${kumaDir} on 127.0.0.1:${port}, data in ${dataDir}, its output in ${logFile}`);
  await waitForListening(child, () => output);

  const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
  // The server registers its events once it has sent `info` (server.js, io.on("connection")).
  await new Promise<void>((resolve, reject) => {
    socket.once('info', () => resolve());
    socket.once('connect_error', reject);
  });
  const beats = new Map<number, Beat[]>();
  socket.on('heartbeat', (beat: Beat) => {
    const list = beats.get(beat.monitorID) ?? [];
    list.push(beat);
    beats.set(beat.monitorID, list);
  });
  const setup = await emit<{ ok: boolean; msg?: string }>(socket, 'setup', USER, PASSWORD);
  if (!setup.ok) throw new Error(`Kuma refused setup: ${setup.msg}`);
  const login = await emit<{ ok: boolean; msg?: string }>(socket, 'login', { username: USER, password: PASSWORD, token: '' });
  if (!login.ok) throw new Error(`Kuma refused the login: ${login.msg}`);

  return {
    dataDir,
    port,
    pid: child.pid!,
    socket,
    beats,
    add: async (monitor) => {
      const answer = await emit<{ ok: boolean; msg?: string; monitorID?: number }>(socket, 'add', { ...MONITOR_DEFAULTS, ...monitor }).catch((error: Error) => {
        throw new Error(`${error.message} for monitor ${String(monitor.name)}:\n${output.slice(-2000)}`);
      });
      if (!answer.ok || answer.monitorID === undefined) throw new Error(`Kuma refused monitor ${String(monitor.name)}: ${answer.msg}`);
      return answer.monitorID;
    },
    addDockerHost: async (name, socketPath) => {
      // server/socket-handlers/docker-socket-handler.js and server/docker.js DockerHost.save (tag 2.5.3).
      const answer = await emit<{ ok: boolean; msg?: string; id?: number }>(
        socket,
        'addDockerHost',
        { name, dockerType: 'socket', dockerDaemon: socketPath },
        null,
      );
      if (!answer.ok || answer.id === undefined) throw new Error(`Kuma refused the Docker host ${socketPath}: ${answer.msg}`);
      return answer.id;
    },
    stop: async () => {
      socket.close();
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGINT');
      });
    },
  };
}
