import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadProbe, probeAvailability } from '../../probes/registry.js';

// CommonJS drivers land in require's cache when loaded, from ESM too.
const loaded = (name: string) => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes(`/node_modules/${name}/`));

describe('network, mail and system probes load their drivers lazily', () => {
  it('loads no driver when a probe module loads, only when it runs', async () => {
    for (const type of ['ssh', 'snmp'] as const) expect((await loadProbe(type)).type).toBe(type);
    expect(loaded('ssh2')).toBe(false);
    expect(loaded('net-snmp')).toBe(false);
  });

  it('reports every type runnable on this host, and the browser type not runnable without Chromium', async () => {
    for (const type of ['ssh', 'smtp', 'imap', 'pop3', 'ntp', 'snmp', 'grpc', 'domain', 'docker'] as const) {
      expect(await probeAvailability(type)).toEqual({ runnable: true });
    }
    const browser = await probeAvailability('browser');
    if (existsSync('/usr/bin/chromium')) expect(browser).toEqual({ runnable: true });
    else expect(browser).toEqual({ runnable: false, reason: 'Chromium is not installed (/usr/bin/chromium; Debian: apt-get install chromium)' });
  });
});
