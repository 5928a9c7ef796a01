import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

/** A loopback TCP relay to the daemon that the test can cut and restore, as a flaky network would. */
async function relay(to: number): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(to, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    async cut() {
      const closed = closeServer();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await closeServer();
    },
  };
}

/** `svc watch` as a process: its output lines as they come. */
function watch(args: string[], env: Record<string, string>) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [SVC_BIN, 'watch', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const parts = partial.split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => stderr,
    /** The next line matching, read from the output (waits up to 10 s). */
    async line(match: (line: string) => boolean): Promise<string> {
      await expect.poll(() => lines.some(match), { timeout: 10_000 }).toBe(true);
      const index = lines.findIndex(match);
      return lines.splice(0, index + 1).pop()!;
    },
    async interrupt(): Promise<number | null> {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe.each(DATABASE_KINDS)('svc watch [%s]', (kind) => {
  let daemon: TestDaemon;
  let token: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    token = await daemon.adminToken();
    env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-watch-')), SVC_TOKEN: token, SVC_ORG: 'default' };
    for (const name of ['Shop', 'Blog']) {
      expect((await daemon.request('POST', '/orgs/default/checks', { token, body: { name, type: 'http', target: 'https://example.com/health' } })).status).toBe(
        201,
      );
    }
  });
  afterAll(() => daemon?.stop());
  const setEnabled = async (slug: string, enabled: boolean) => {
    expect((await daemon.request('PATCH', `/orgs/default/checks/${slug}`, { token, body: { enabled } })).status).toBe(200);
  };
  const streamsOpen = () => expect.poll(() => daemon.deps.events.size, { timeout: 10_000 });

  it('--json prints one object per event, reconnects by itself and replays what it missed, and Ctrl-C exits 0', async () => {
    const network = await relay(Number(new URL(daemon.url).port));
    const watcher = watch(['--json'], { ...env, SVC_URL: `http://127.0.0.1:${network.port}` });
    try {
      await streamsOpen().toBe(1);
      await setEnabled('shop', false);
      const paused = JSON.parse(await watcher.line((line) => line.includes('"check.state"')));
      expect(paused).toMatchObject({ event: 'check.state', id: expect.any(String), data: { slug: 'shop', state: 'paused' } });

      // The network drops; meanwhile shop resumes; the watcher connects again and is caught up.
      await network.cut();
      await streamsOpen().toBe(0);
      await setEnabled('shop', true);
      await network.restore();
      const missed = JSON.parse(await watcher.line((line) => line.includes('"check.state"')));
      expect(missed.data).toMatchObject({ slug: 'shop', from: 'paused', state: 'pending' });
      expect(watcher.stderr()).toContain('connecting again');
      expect(await watcher.interrupt()).toBe(0);
    } finally {
      watcher.child.kill('SIGKILL');
      await network.close();
    }
  });

  it('prints a line per event for people, and --checks keeps those of some checks', async () => {
    const watcher = watch(['--checks', 'blog'], { ...env, SVC_URL: daemon.url });
    try {
      await watcher.line((line) => line.startsWith('watching default'));
      await streamsOpen().toBe(1);
      await setEnabled('shop', false);
      await setEnabled('blog', false);
      // The sentinel: blog's line comes, and shop's never came before it.
      const line = await watcher.line((text) => text.includes('→'));
      expect(line).toMatch(/^\S+Z {2}blog {2}pending → paused/);
      expect(await watcher.interrupt()).toBe(0);
    } finally {
      watcher.child.kill('SIGKILL');
    }
  });
});
