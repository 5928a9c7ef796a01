import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';

/** A dnsmasq (Debian's dnsmasq-base) serving fixed records on 127.0.0.1. */
export interface Dnsmasq {
  port: number;
  stop(): Promise<void>;
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** Starts dnsmasq in the foreground with `records` (dnsmasq options) and waits until it answers. */
export async function startDnsmasq(records: string[]): Promise<Dnsmasq> {
  const port = await freeUdpPort();
  const child: ChildProcess = spawn(
    'dnsmasq',
    [
      '--no-daemon',
      '--conf-file=/dev/null',
      '--no-resolv',
      '--no-hosts',
      '--bind-interfaces',
      '--listen-address=127.0.0.1',
      `--port=${port}`,
      '--pid-file=',
      ...records,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`dnsmasq exited (${code}): ${stderr.trim()}`))));
  const spawned = new Promise<never>((_, reject) => child.once('error', reject));
  // dnsmasq logs "started" once it listens.
  const ready = new Promise<void>((resolve) => {
    const check = () => (stderr.includes('started') ? resolve() : setTimeout(check, 20));
    check();
  });
  await Promise.race([ready, exited, spawned]);
  exited.catch(() => {});
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
