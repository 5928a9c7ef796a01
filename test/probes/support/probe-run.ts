import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { validateCheck, type CheckDefinition, type CheckTypeName, type ThresholdsInput } from '../../../checks/index.js';
import { createEgressPolicy, type EgressOptions, type EgressPolicy } from '../../../probes/egress.js';
import type { ProbeResult } from '../../../probes/probe.js';
import { runProbe } from '../../../probes/run-probe.js';
import { loadProbeAndDriver } from '../../support/probe-runs.js';

/** A normalised check of `type` (defaults filled by the catalog), or a thrown list of problems. */
export function checkOf(type: CheckTypeName, target: string, config: Record<string, unknown> = {}, thresholds: ThresholdsInput = {}): CheckDefinition {
  const validation = validateCheck({ name: `${type} probe test`, type, target, config, thresholds });
  if (!validation.ok) throw new Error(`invalid test check: ${JSON.stringify(validation.issues)}`);
  return validation.check;
}

/** The policy of a single-tenant daemon: loopback allowed, link-local refused. */
export function testEgress(options: Partial<EgressOptions> = {}): EgressPolicy {
  return createEgressPolicy({ denyPrivate: false, ...options });
}

/** Runs the check once through `runProbe`, as the runner does. */
export function probe(check: CheckDefinition, egress: EgressPolicy = testEgress()): Promise<ProbeResult> {
  return runProbe(check, { egress });
}

/** Runs a check and measures the run's wall time as the caller sees it. */
export async function timedProbe(check: CheckDefinition, egress?: EgressPolicy): Promise<ProbeResult & { wallMs: number }> {
  // The first run of a type loads its driver, which is not the target's time: load it before the clock starts.
  await loadProbeAndDriver(check.type);
  const started = performance.now();
  const result = await probe(check, egress);
  return { ...result, wallMs: performance.now() - started };
}

/** A TCP listener that accepts connections and never writes a byte: the target that never answers. */
export interface SilentServer {
  port: number;
  /** Connections accepted so far. */
  accepted: number;
  /** Resolves once every accepted connection has been closed by the client. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const closed: Promise<void>[] = [];
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    // Read (and drop) what arrives: a paused socket would never see the client's FIN.
    socket.resume();
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return accepted;
    },
    allClosed: async () => {
      await Promise.all(closed);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
