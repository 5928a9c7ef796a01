import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';

// A private podman engine serving the Docker-compatible Engine API on a Unix socket
// (`podman system service`, docs.podman.io/en/v4.3/markdown/podman-system-service.1.html), with
// storage of its own in a temporary directory (every podman command gets --root and --runroot, so
// the machine's default storage is never touched) and one image imported from a local root file
// system (/bin/sleep, /bin/sh and their libraries): nothing is pulled, and the containers have no
// network (`--network none`).
//
// Starting a container needs cgroups the runtime (crun) can use. On a host with cgroups in
// "hybrid" mode (v1 controllers and a cgroup2 tree at /sys/fs/cgroup/unified), crun refuses to
// start anything ("cgroups in hybrid mode not supported"); as root, the service runs in a private
// mount namespace of its own (`unshare --mount`) without that cgroup2 mount, where crun sees plain
// cgroup v1 and starts containers. The host's mounts are not changed.

const run = promisify(execFile);

export const PODMAN = '/usr/bin/podman';
/** The image every container runs: the local root file system imported under this name. */
export const PODMAN_IMAGE = 'localhost/svc-probe-rootfs:latest';
const API = 'http://podman/v1.41';

export interface PodmanEngine {
  /** The Engine API's socket, and the same as a Docker host URL. */
  socketPath: string;
  dockerHost: string;
  /** Why containers cannot be started here, or undefined when they can. */
  cannotStart?: string;
  /** Creates (does not start) a container running `command` in the image. */
  create(name: string, command: string[]): Promise<void>;
  /** Starts a container through the Engine API (POST /containers/{name}/start). */
  start(name: string): Promise<void>;
  /** Stops a running container at once (SIGKILL: exit code 137). */
  stop(name: string): Promise<void>;
  /** Waits until a started container exits; answers its exit code. */
  wait(name: string): Promise<number>;
  /** Removes every container, stops the service and deletes the storage. */
  close(): Promise<void>;
}

/** Whether podman is installed. */
export function hasPodman(): boolean {
  return existsSync(PODMAN);
}

/** A root file system tar of /bin/sleep and /bin/sh with the libraries ldd names. */
async function rootfsTar(dir: string): Promise<string> {
  const rootfs = join(dir, 'rootfs');
  const binaries = ['/bin/sleep', '/bin/sh'];
  const { stdout } = await run('ldd', binaries);
  const libraries = [...stdout.matchAll(/(\/[^\s:]+)\s+\(0x/g)].map((match) => match[1]!);
  for (const file of new Set([...binaries, ...libraries])) {
    mkdirSync(join(rootfs, dirname(file)), { recursive: true });
    copyFileSync(file, join(rootfs, file));
  }
  const tar = join(dir, 'rootfs.tar');
  await run('tar', ['-C', rootfs, '-cf', tar, '.']);
  return tar;
}

/** How many processes have `text` in their command line. */
function processesNaming(text: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

/** The host has a cgroup2 tree beside cgroup v1 controllers (crun's "hybrid mode"). */
function hybridCgroups(): boolean {
  return existsSync('/sys/fs/cgroup/unified/cgroup.controllers');
}

async function api(socket: Agent, method: 'GET' | 'POST' | 'DELETE', path: string): Promise<{ status: number; body: string }> {
  const response = await request(`${API}${path}`, { method, dispatcher: socket });
  return { status: response.statusCode, body: await response.body.text() };
}

/** Starts a private engine in a new temporary directory. */
export async function startPodmanEngine(): Promise<PodmanEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-podman-'));
  const socketPath = join(dir, 'engine.sock');
  const storage = [
    '--root',
    join(dir, 'root'),
    '--runroot',
    join(dir, 'run'),
    '--tmpdir',
    join(dir, 'tmp'),
    '--storage-driver',
    'vfs',
    '--cgroup-manager',
    'cgroupfs',
    '--events-backend',
    'file',
  ];
  const podman = (args: string[]) => run(PODMAN, [...storage, ...args], { timeout: 60_000 });
  let service: ChildProcess | undefined;
  const socket = new Agent({ connect: { socketPath } });
  const close = async () => {
    if (service && service.exitCode === null) {
      const listed = await api(socket, 'GET', '/containers/json?all=true').catch(() => undefined);
      for (const { Id } of (listed?.status === 200 ? JSON.parse(listed.body) : []) as { Id: string }[]) {
        // At once: a shell or sleep as PID 1 ignores SIGTERM, and a forced removal would wait 10 s for it.
        await api(socket, 'POST', `/containers/${Id}/stop?t=0`).catch(() => {});
        await api(socket, 'DELETE', `/containers/${Id}?force=true`).catch(() => {});
      }
      await new Promise<void>((resolve) => {
        service!.once('exit', () => resolve());
        service!.kill('SIGTERM');
      });
    }
    await socket.close().catch(() => {});
    // A removed container's conmon runs `podman container cleanup` on its way out, which would
    // create the storage directories again: the directory goes once no process names it.
    const started = Date.now();
    while (processesNaming(dir) > 0 && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await podman(['import', await rootfsTar(dir), PODMAN_IMAGE]);
    const serve = [PODMAN, ...storage, 'system', 'service', '--time=0', `unix://${socketPath}`];
    // In a private mount namespace where the host needs it (and unshare is allowed); else as it is.
    let privateNamespace = hybridCgroups() && process.getuid?.() === 0 && existsSync('/usr/bin/unshare');
    const spawnService = () =>
      privateNamespace
        ? spawn('/usr/bin/unshare', ['--mount', '--propagation', 'private', 'sh', '-c', 'umount /sys/fs/cgroup/unified; exec "$@"', 'sh', ...serve], {
            stdio: 'ignore',
          })
        : spawn(serve[0]!, serve.slice(1), { stdio: 'ignore' });
    service = spawnService();
    // The service goes when the process ends, however it ends.
    process.once('exit', () => service?.kill('SIGKILL'));
    const started = Date.now();
    while ((await api(socket, 'GET', '/_ping').catch(() => undefined))?.status !== 200) {
      if (service.exitCode !== null && privateNamespace) {
        privateNamespace = false;
        service = spawnService();
      } else if (service.exitCode !== null) throw new Error(`podman system service exited (${service.exitCode})`);
      if (Date.now() - started > 30_000) throw new Error('podman system service did not answer in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const engine: PodmanEngine = {
      socketPath,
      dockerHost: `unix://${socketPath}`,
      create: async (name, command) => {
        // The limits podman would otherwise copy from a host whose own may be above the kernel's.
        await podman(['create', '--name', name, '--network', 'none', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024', PODMAN_IMAGE, ...command]);
      },
      start: async (name) => {
        const answer = await api(socket, 'POST', `/containers/${encodeURIComponent(name)}/start`);
        if (answer.status !== 204 && answer.status !== 304) throw new Error(`podman did not start ${name}: ${answer.body.trim()}`);
      },
      stop: async (name) => {
        const answer = await api(socket, 'POST', `/containers/${encodeURIComponent(name)}/stop?t=0`);
        if (answer.status !== 204 && answer.status !== 304) throw new Error(`podman did not stop ${name}: ${answer.body.trim()}`);
      },
      wait: async (name) => {
        const answer = await api(socket, 'POST', `/containers/${encodeURIComponent(name)}/wait`);
        return (JSON.parse(answer.body) as { StatusCode: number }).StatusCode;
      },
      close,
    };
    // One trial start says whether containers can run on this host.
    await engine.create('svc-start-trial', ['/bin/sh', '-c', 'exit 0']);
    engine.cannotStart = await engine.start('svc-start-trial').then(
      () => undefined,
      (error: Error) => error.message,
    );
    await api(socket, 'DELETE', '/containers/svc-start-trial?force=true');
    return engine;
  } catch (error) {
    await close();
    throw error;
  }
}
