import { describe, expect, it } from 'vitest';
import type { CheckTypeName } from '../../checks/index.js';
import { createEgressPolicy } from '../../probes/egress.js';
import { runProbe } from '../../probes/run-probe.js';
import { probeCheck } from '../support/probe-runs.js';

// Every database and broker probe resolves its target through the egress policy before a
// driver opens anything: a refused address is a down result that says so, at once.
const CASES: Array<{ type: CheckTypeName; target: string; config?: Record<string, unknown> }> = [
  { type: 'postgres', target: '169.254.169.254:5432' },
  { type: 'mysql', target: '169.254.169.254' },
  { type: 'mssql', target: '169.254.169.254' },
  { type: 'oracle', target: '169.254.169.254', config: { database: 'ORCL' } },
  { type: 'redis', target: '169.254.169.254' },
  { type: 'mongodb', target: '169.254.169.254' },
  { type: 'mqtt', target: '169.254.169.254', config: { topic: 'a' } },
  { type: 'kafka', target: '169.254.169.254', config: { topic: 'a' } },
  { type: 'rabbitmq', target: 'http://169.254.169.254:15672/' },
];

describe('database and broker probes obey the egress policy', () => {
  it.each(CASES)('$type refuses a link-local target', async ({ type, target, config }) => {
    const check = probeCheck({ name: 'x', type, target, config: config ?? {}, thresholds: { timeoutMs: 3000 } });
    const result = await runProbe(check, { egress: createEgressPolicy({ denyPrivate: false }) });
    expect(result).toMatchObject({ status: 'down', message: 'egress policy refuses 169.254.169.254 (link-local, metadata or unspecified address)' });
  });

  it.each(CASES.filter(({ type }) => type !== 'rabbitmq'))('$type refuses loopback when private addresses are denied', async ({ type, config }) => {
    const check = probeCheck({ name: 'x', type, target: '127.0.0.1:1', config: config ?? {}, thresholds: { timeoutMs: 3000 } });
    const result = await runProbe(check, { egress: createEgressPolicy({ denyPrivate: true }) });
    expect(result).toMatchObject({ status: 'down', message: 'egress policy refuses 127.0.0.1 (loopback or private address)' });
  });
});
