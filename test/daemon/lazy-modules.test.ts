import { describe, expect, it } from 'vitest';
import { built, modulesLoadedBy } from '../support/loaded-modules.js';

describe('modules a daemon loads only when asked', () => {
  it('starts on SQLite without the MCP SDK, sign-in through providers, PostgreSQL, mail, QR codes or JSONata', () => {
    // A daemon (role all, SQLite) from dist/, as `npm start` runs it, stopped once it serves.
    const loaded = modulesLoadedBy(`const { loadConfig } = await import(${built('daemon/config/config.js')});
const { startDaemon } = await import(${built('daemon/server.js')});
const daemon = await startDaemon(loadConfig({ SVC_DB_URL: 'sqlite:' + process.env.DIR + '/svc.db', SVC_LISTEN: '127.0.0.1:0', SVC_LOG_LEVEL: 'error', SVC_NODE_ROLE: 'all' }));
await daemon.close();`);
    // The recorder works: the daemon's own modules and its query builder are there.
    expect(loaded).toContain('/dist/daemon/server.js');
    expect(loaded).toContain('/node_modules/kysely/');
    for (const name of ['@modelcontextprotocol/sdk', 'arctic', 'jose', 'pg', 'nodemailer', 'qrcode', 'jsonata'])
      expect(loaded, name).not.toContain(`/node_modules/${name}/`);
    expect(loaded).not.toContain('/dist/daemon/mcp/server.js');
  }, 90_000);

  it("a probe thread's HTTP and TCP probes load neither the check catalog nor its schemas", () => {
    const loaded = modulesLoadedBy(`await import(${built('daemon/runner/probe-thread-worker.js')}).catch(() => {});
const { loadProbe } = await import(${built('probes/registry.js')});
await loadProbe('http');
await loadProbe('tcp');`);
    expect(loaded).toContain('/dist/probes/types/http.js');
    expect(loaded).toContain('/node_modules/undici/');
    expect(loaded).not.toContain('/node_modules/zod/');
    expect(loaded).not.toContain('/dist/checks/index.js');
  }, 90_000);
});
