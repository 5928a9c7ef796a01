import { Agent, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon } from '../../support/daemon.js';

type Outcome = { status: number; connection?: string } | { error: string };

function get(url: string, agent: Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe.each(DATABASE_KINDS)('draining with keep-alive clients [%s]', (kind) => {
  it('closes idle keep-alive connections while still listening and answers what arrives with Connection: close', async () => {
    const daemon = await startTestDaemon(kind);
    const agent = new Agent({ keepAlive: true, maxSockets: 3 });
    const health = `${daemon.url}/api/v1/health`;
    try {
      // Three idle keep-alive connections in the client's pool.
      expect(await Promise.all([get(health, agent), get(health, agent), get(health, agent)])).toEqual(
        new Array(3).fill({ status: 200, connection: 'keep-alive' }),
      );
      const idle = Object.values(agent.freeSockets).flat() as Socket[];
      expect(idle).toHaveLength(3);

      // A request under way: its body has not all arrived.
      const slow = connect(Number(new URL(daemon.url).port), '127.0.0.1');
      await new Promise((resolve) => slow.once('connect', resolve));
      let slowAnswer = '';
      slow.on('data', (chunk) => (slowAnswer += chunk.toString()));
      const slowEnded = new Promise((resolve) => slow.once('close', resolve));
      slow.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"email":');
      // Sentinel: the daemon counts it as under way (idle() no longer resolves at once).
      for (;;) {
        const started = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), 20);
          void daemon.deps.lifecycle.idle().then(() => {
            clearTimeout(timer);
            resolve(false);
          });
        });
        if (started) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }

      const closing = daemon.close();
      // The daemon closes the idle connections first...
      await Promise.all(idle.map((socket) => (socket.destroyed ? undefined : new Promise((resolve) => socket.once('close', resolve)))));
      // ...and what the client sends next is answered, on a new connection, as its last.
      const during = await Promise.all([get(health, agent), get(health, agent), get(health, agent)]);
      expect(during).toEqual(new Array(3).fill({ status: 200, connection: 'close' }));

      slow.write('"a@b.c","password":"x"}'.padEnd(40 - '{"email":'.length, ' '));
      await slowEnded;
      expect(slowAnswer).toMatch(/^HTTP\/1\.1 (400|401) /);
      expect(slowAnswer.toLowerCase()).toContain('connection: close');
      await closing;
      // Once closed, nothing listens.
      expect(await get(health, new Agent())).toEqual({ error: 'ECONNREFUSED' });
    } finally {
      agent.destroy();
      await daemon.close();
      await daemon.database.drop();
    }
  });
});
