import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, postgresBinaries, tempDir } from './local-servers.js';

/** A PostgreSQL cluster of the test's own, which the test stops and starts again (an outage). */
export interface RestartablePostgres {
  /** A database `svc` on the cluster, trust authentication on 127.0.0.1. */
  url: string;
  /** Stops the server (fast shutdown: sessions are cut); the data stays. */
  stop(): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /** Stops it and removes its folder. */
  destroy(): void;
}

/**
 * initdb and pg_ctl from Debian's postgresql package, as the `postgres` user when this process is
 * root (PostgreSQL refuses to run as root), on a free port of 127.0.0.1 and a temporary folder.
 */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL server binaries are not installed (Debian package postgresql)');
  const owner = process.getuid?.() === 0 ? 'postgres' : undefined;
  const dir = tempDir('svc-pg-outage-', owner);
  const data = join(dir, 'data');
  const port = await freePort();
  const run = (program: string, args: string[]) => {
    const [command, argv] = owner ? ['runuser', ['-u', owner, '--', join(bin, program), ...args]] : [join(bin, program), args];
    const done = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
    if (done.status !== 0) throw new Error(`${program} ${args[0]} failed: ${done.stderr || done.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'svc']);
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/svc`,
    stop() {
      stop();
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      if (running) stop();
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
