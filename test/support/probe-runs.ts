import { createServer, type AddressInfo, type Socket } from 'node:net';
import { expect } from 'vitest';
import { validateCheck, type CheckDefinition, type CheckTypeName, type ThresholdsInput } from '../../checks/index.js';
import { createEgressPolicy } from '../../probes/egress.js';
import type { ProbeResult } from '../../probes/probe.js';
import type { ProbeCaches } from '../../probes/probe-caches.js';
import { loadProbe } from '../../probes/registry.js';
import { runProbe } from '../../probes/run-probe.js';

/** The egress policy of a single-tenant daemon: loopback allowed. */
export const loopbackEgress = createEgressPolicy({ denyPrivate: false });

/** A check as a test writes it: validated at run time, so its config is loosely typed. */
export interface ProbeCheckInput {
  name: string;
  type: CheckTypeName;
  target?: string;
  config?: Record<string, unknown>;
  thresholds?: ThresholdsInput;
}

/**
 * A validated check, with its credentials as the runner hands them to a probe: secret
 * references already replaced by their values.
 */
export function probeCheck(input: ProbeCheckInput, credentials: Record<string, unknown> = {}): CheckDefinition {
  const validation = validateCheck(input);
  if (!validation.ok) throw new Error(`invalid test check: ${JSON.stringify(validation.issues)}`);
  const { check } = validation;
  return { ...check, config: { ...check.config, ...credentials } } as CheckDefinition;
}

/** Drivers a probe imports only when it runs (so that loading the probe module stays cheap). */
const RUN_TIME_DRIVERS: Partial<Record<CheckTypeName, string>> = { snmp: 'net-snmp', ssh: 'ssh2', browser: 'playwright-core' };

/**
 * Loads a type's probe and the driver it would import on its first run: a test that measures a
 * run's time starts its clock after this, so the module loading is not counted as the target's.
 */
export async function loadProbeAndDriver(type: CheckTypeName): Promise<void> {
  await loadProbe(type);
  const driver = RUN_TIME_DRIVERS[type];
  if (driver) await import(driver);
}

/**
 * Runs a check once through runProbe, as the runner does, with the given secret values redacted;
 * `caches` are what the runner would keep between runs (a fresh set when not given).
 */
export function runCheck(check: CheckDefinition, secretValues: string[] = [], caches?: ProbeCaches): Promise<ProbeResult> {
  return runProbe(check, { egress: loopbackEgress, secretValues, caches });
}

/** A TCP listener that accepts connections and never answers: the target of timeout tests. */
export interface SilentListener {
  port: number;
  /** Connections accepted so far. */
  accepted: number;
  /** Connections the client has closed. */
  closed: number;
  close(): Promise<void>;
}

export async function startSilentListener(): Promise<SilentListener> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    state.accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.resume(); // read (and drop) what the client sends, so its closing is seen
    socket.once('close', () => {
      state.closed += 1;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: SilentListener = {
    port: (server.address() as AddressInfo).port,
    accepted: 0,
    closed: 0,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return state;
}

/**
 * Runs `check` (pointed at `listener`, with `thresholds.timeoutMs` set) and asserts the run ends
 * as a timeout near the deadline and that the probe closed every connection it opened.
 */
export async function expectTimeoutTearsDown(check: CheckDefinition, listener: SilentListener, caches?: ProbeCaches): Promise<void> {
  const { timeoutMs } = check.thresholds;
  // The first run of a type loads its driver, which is not the target's time: load it before the clock starts.
  await loadProbeAndDriver(check.type);
  const started = Date.now();
  const result = await runCheck(check, [], caches);
  const elapsed = Date.now() - started;
  expect(result).toMatchObject({ status: 'down', message: `timeout after ${timeoutMs} ms` });
  expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 5);
  expect(elapsed).toBeLessThan(timeoutMs + 400);
  expect(listener.accepted).toBeGreaterThan(0);
  await expect.poll(() => listener.closed, { timeout: 2000 }).toBe(listener.accepted);
}
