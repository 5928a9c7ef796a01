import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPolicy } from '../../probes/egress.js';
import { runProbe } from '../../probes/run-probe.js';
import { freePort, tempDir } from '../support/local-servers.js';
import { expectTimeoutTearsDown, probeCheck, runCheck, startSilentListener, type SilentListener } from '../support/probe-runs.js';

const docker = (target: string, dockerHost: string, timeoutMs = 5000) =>
  ({ name: 'container', type: 'docker', target, config: { dockerHost }, thresholds: { timeoutMs } }) as const;

// Containers as the Engine API describes them (GET /containers/{id}/json).
const CONTAINERS: Record<string, object> = {
  web: { Id: 'abc', Name: '/web', State: { Status: 'running', Running: true, ExitCode: 0 } },
  api: { Id: 'def', Name: '/api', State: { Status: 'running', Running: true, Health: { Status: 'healthy' } } },
  worker: { Id: 'ghi', Name: '/worker', State: { Status: 'running', Running: true, Health: { Status: 'unhealthy' } } },
  batch: { Id: 'jkl', Name: '/batch', State: { Status: 'exited', Running: false, ExitCode: 137 } },
  // No health check, as the Engine API may say it (its Health.Status enum: none, starting, healthy, unhealthy).
  plain: { Id: 'mno', Name: '/plain', State: { Status: 'running', Running: true, Health: { Status: 'none' } } },
};

function engineApi(): Server {
  return createServer((req, res) => {
    const name = /^\/containers\/([^/]+)\/json$/.exec(req.url ?? '')?.[1];
    const container = name ? CONTAINERS[decodeURIComponent(name)] : undefined;
    res.setHeader('content-type', 'application/json');
    res.setHeader('api-version', '1.47');
    if (!container) {
      res.statusCode = 404;
      res.end(JSON.stringify({ message: `No such container: ${name}` }));
      return;
    }
    res.end(JSON.stringify(container));
  });
}

describe('docker probe against a protocol-level fake Docker Engine API', () => {
  const dir = tempDir('svc-docker-');
  const socketPath = join(dir, 'docker.sock');
  let overSocket: Server;
  let overTcp: Server;
  let tcpPort: number;
  beforeAll(async () => {
    overSocket = engineApi();
    await new Promise<void>((resolve) => overSocket.listen(socketPath, resolve));
    overTcp = engineApi();
    await new Promise<void>((resolve) => overTcp.listen(0, '127.0.0.1', resolve));
    tcpPort = (overTcp.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => overSocket.close(resolve));
    await new Promise((resolve) => overTcp.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('is up while the container runs (and is healthy), over the Unix socket, tcp:// and http://', async () => {
    expect(await runCheck(probeCheck(docker('web', `unix://${socketPath}`)))).toMatchObject({ status: 'up', message: 'running' });
    expect(await runCheck(probeCheck(docker('api', `tcp://127.0.0.1:${tcpPort}`)))).toMatchObject({ status: 'up', message: 'running (healthy)' });
    expect(await runCheck(probeCheck(docker('web', `http://127.0.0.1:${tcpPort}`)))).toMatchObject({ status: 'up', message: 'running' });
  });

  it('is up when the container runs with a health status of none: it has no health check (Uptime Kuma 2.5.3 server/model/monitor.js: up)', async () => {
    expect(await runCheck(probeCheck(docker('plain', `unix://${socketPath}`)))).toMatchObject({ status: 'up', message: 'running' });
  });

  it('is down when the container is unhealthy, stopped or unknown', async () => {
    const host = `unix://${socketPath}`;
    expect(await runCheck(probeCheck(docker('worker', host)))).toMatchObject({ status: 'down', message: 'container worker is running but unhealthy' });
    expect(await runCheck(probeCheck(docker('batch', host)))).toMatchObject({ status: 'down', message: 'container batch is exited (exit code 137)' });
    expect(await runCheck(probeCheck(docker('ghost', host)))).toMatchObject({ status: 'down', message: 'no container named ghost' });
  });

  it('refuses the local socket under an egress policy that denies private addresses', async () => {
    const result = await runProbe(probeCheck(docker('web', `unix://${socketPath}`)), { egress: createEgressPolicy({ denyPrivate: true }) });
    expect(result).toMatchObject({ status: 'down', message: 'the egress policy refuses local Docker sockets' });
  });
});

describe('docker probe, refused and timeout', () => {
  let listener: SilentListener;
  beforeAll(async () => {
    listener = await startSilentListener();
  });
  afterAll(() => listener.close());

  it('is down when there is no socket, or nothing listens', async () => {
    expect(await runCheck(probeCheck(docker('web', 'unix:///nonexistent/docker.sock')))).toMatchObject({
      status: 'down',
      message: 'no Docker socket at /nonexistent/docker.sock',
    });
    const port = await freePort();
    expect(await runCheck(probeCheck(docker('web', `tcp://127.0.0.1:${port}`)))).toMatchObject({
      status: 'down',
      message: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('ends at thresholds.timeoutMs against an engine that never answers, and closes its socket', async () => {
    await expectTimeoutTearsDown(probeCheck(docker('web', `tcp://127.0.0.1:${listener.port}`, 500)), listener);
  });
});
