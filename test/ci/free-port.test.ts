import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freePort } from '../support/local-servers.js';

// Suites that must know a daemon's address before it starts take a port from freePort and bind
// it later. A port of the kernel's ephemeral range could be taken meanwhile by any connection of
// a suite running in parallel (a daemon then failed to start with "already in use").

describe('freePort', () => {
  it("gives ports below the kernel's ephemeral range that a server can listen on", async () => {
    const [ephemeralFirst] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(ephemeralFirst);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
