import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/local-servers.js';

const ROOT = resolve(import.meta.dirname, '../..');

// Records every module the process loads, ESM and CommonJS alike, into the file LOADED_LOG names.
const RECORDER = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, context); }`;

// Starts a daemon (role all, SQLite) from dist/, as `npm start` does, and stops it once it serves.
const START = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(RECORDER)}));
const { loadConfig } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/daemon/config/config.js')).href)});
const { startDaemon } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/daemon/server.js')).href)});
const daemon = await startDaemon(loadConfig({ SVC_DB_URL: process.env.DB_URL, SVC_LISTEN: '127.0.0.1:0', SVC_LOG_LEVEL: 'error', SVC_NODE_ROLE: 'all' }));
await daemon.close();`;

describe('modules a daemon loads only when asked', () => {
  it('starts on SQLite without the MCP SDK, sign-in through providers, PostgreSQL, mail, QR codes or JSONata', () => {
    const dir = tempDir('svc-lazy-');
    const log = join(dir, 'loaded.txt');
    const started = spawnSync(process.execPath, ['--input-type=module', '-e', START], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir, LOADED_LOG: log, DB_URL: `sqlite:${join(dir, 'svc.db')}` },
      timeout: 60_000,
    });
    expect(started.stderr).toBe('');
    expect(started.status).toBe(0);
    const loaded = readFileSync(log, 'utf8');
    // The recorder works: the daemon's own modules and its database driver are there.
    expect(loaded).toContain('/dist/daemon/server.js');
    expect(loaded).toContain('/node_modules/kysely/');
    for (const name of ['@modelcontextprotocol/sdk', 'arctic', 'jose', 'pg', 'nodemailer', 'qrcode', 'jsonata'])
      expect(loaded, name).not.toContain(`/node_modules/${name}/`);
    expect(loaded).not.toContain('/dist/daemon/mcp/server.js');
  }, 90_000);
});
