import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPodman, startPodmanEngine, type PodmanEngine } from '../../bench/parity/podman.js';
import { hasTool } from '../support/required-tool.js';
import { probeCheck, runCheck } from '../support/probe-runs.js';

// The docker probe against a real Docker-compatible Engine API: podman's (`podman system service`,
// docs.podman.io/en/v4.3/markdown/podman-system-service.1.html; the compat endpoint
// GET /containers/{name}/json of docs.docker.com/reference/api/engine/version/v1.41/#tag/Container),
// with a private storage, an image imported from a local root file system and containers without
// network (bench/parity/podman.ts). Containers run where the host lets crun start them (see there);
// elsewhere only the created and missing ones are inspected, and the test says why.

const docker = (target: string, dockerHost: string) =>
  ({ name: 'container', type: 'docker', target, config: { dockerHost }, thresholds: { timeoutMs: 10_000 } }) as const;

const available = hasTool('/usr/bin/podman', 'podman', 'the docker probe tests against a real Engine API') && hasPodman();

describe.skipIf(!available)('docker probe against podman system service', () => {
  let engine: PodmanEngine;
  beforeAll(async () => {
    engine = await startPodmanEngine();
    await engine.create('svc-created', ['/bin/sleep', '300']);
    if (engine.cannotStart) {
      console.warn(`[svc tests] podman cannot start containers here (${engine.cannotStart}): only created and missing containers are inspected`);
      return;
    }
    await engine.create('svc-running', ['/bin/sleep', '300']);
    await engine.start('svc-running');
    await engine.create('svc-killed', ['/bin/sleep', '300']);
    await engine.start('svc-killed');
    await engine.stop('svc-killed');
    await engine.create('svc-failed', ['/bin/sh', '-c', 'exit 3']);
    await engine.start('svc-failed');
    expect(await engine.wait('svc-failed')).toBe(3);
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  }, 60_000);

  it('is down for a container that is created but not started, with its state', async () => {
    expect(await runCheck(probeCheck(docker('svc-created', engine.dockerHost)))).toMatchObject({
      status: 'down',
      message: 'container svc-created is created',
    });
  });

  it('is down for a container the engine does not know (its 404)', async () => {
    expect(await runCheck(probeCheck(docker('svc-ghost', engine.dockerHost)))).toMatchObject({ status: 'down', message: 'no container named svc-ghost' });
  });

  it('is up while the container runs; podman reports no health check as an empty one, which is not a failing one', async (context) => {
    if (engine.cannotStart) return context.skip();
    expect(await runCheck(probeCheck(docker('svc-running', engine.dockerHost)))).toMatchObject({ status: 'up', message: 'running' });
  });

  it('is down for a stopped container, with its exit code', async (context) => {
    if (engine.cannotStart) return context.skip();
    expect(await runCheck(probeCheck(docker('svc-killed', engine.dockerHost)))).toMatchObject({
      status: 'down',
      message: 'container svc-killed is exited (exit code 137)',
    });
    expect(await runCheck(probeCheck(docker('svc-failed', engine.dockerHost)))).toMatchObject({
      status: 'down',
      message: 'container svc-failed is exited (exit code 3)',
    });
  });
});
