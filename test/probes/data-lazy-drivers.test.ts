import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadProbe, probeAvailability } from '../../probes/registry.js';

// CommonJS drivers land in require's cache when loaded, from ESM too.
const loaded = (name: string) => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes(`/node_modules/${name}/`));

describe('database and broker drivers load lazily', () => {
  it('loads a driver the first time its type runs, and no other', async () => {
    expect(loaded('kafkajs')).toBe(false);
    expect(loaded('tedious')).toBe(false);
    const probe = await loadProbe('kafka');
    expect(probe.type).toBe('kafka');
    expect(loaded('kafkajs')).toBe(true);
    expect(loaded('tedious')).toBe(false);
  });

  it('reports every database and broker type as runnable', async () => {
    for (const type of ['postgres', 'mysql', 'mssql', 'oracle', 'redis', 'mongodb', 'mqtt', 'kafka', 'rabbitmq'] as const) {
      expect(await probeAvailability(type)).toEqual({ runnable: true });
    }
  });
});
