import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../probes/run-probe.js';
import { checkTypeNames } from '../../checks/index.js';
import { probeAvailability } from '../../probes/registry.js';
import { checkOf, probe, testEgress } from './support/probe-run.js';

describe('runProbe (against a real local HTTP server)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/secret') response.writeHead(500).end();
      else response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('turns success into down in upside-down mode, saying so', async () => {
    expect(await probe(checkOf('http', `${base}/`, { invert: true }))).toMatchObject({ status: 'down', message: 'upside-down: status 200' });
  });

  it('removes secret values from messages', async () => {
    const check = checkOf('http', `${base}/secret`, { expectedStatusCodes: [200] });
    const result = await runProbe(check, { egress: testEgress(), secretValues: ['500'] });
    expect(result).toMatchObject({ status: 'down', message: 'expected status 200, [withheld: contained a secret]' });
  });

  it('has an executor for every check type, and says which types can run', async () => {
    for (const type of checkTypeNames) {
      expect(await probeAvailability(type), type).not.toEqual({ runnable: false, reason: 'no executor for this type yet' });
    }
    for (const type of ['http', 'tcp', 'udp', 'dns', 'tls', 'websocket'] as const) {
      expect(await probeAvailability(type), type).toEqual({ runnable: true });
    }
  });
});
