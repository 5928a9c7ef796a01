import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../cli/main.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { mintToken, READ_TOOLS } from './mcp-client.js';

/** Runs the CLI in this process, capturing what it prints. */
async function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await runCli(['node', 'svc', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

describe.each(DATABASE_KINDS)('svc mcp config [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(() => daemon.stop());
  beforeEach(() => {
    // No saved sign-in and no token from the environment unless a test sets one.
    vi.stubEnv('SVC_CONFIG_DIR', mkdtempSync(join(tmpdir(), 'svc-mcp-config-')));
    vi.stubEnv('SVC_TOKEN', '');
    vi.stubEnv('SVC_URL', '');
    vi.stubEnv('NO_COLOR', '1');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('prints the URL and the Authorization header, and the snippet works with the SDK client', async () => {
    const token = await mintToken(daemon, await daemon.adminToken(), ['mcp:read']);
    const result = await svc(['--url', `${daemon.url}/`, 'mcp', 'config', '--token', token]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const snippet = JSON.parse(result.stdout);
    expect(snippet).toEqual({
      mcpServers: { svc: { type: 'http', url: `${daemon.url}/api/v1/mcp`, headers: { Authorization: `Bearer ${token}` } } },
    });

    const { url, headers } = snippet.mcpServers.svc;
    const client = new Client({ name: 'configured-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS].sort());
    } finally {
      await client.close();
    }
  });

  it('signed in with a session, mints a personal access token with the mcp scope named after the client, and says how to revoke it', async () => {
    const session = await daemon.adminToken();
    vi.stubEnv('SVC_TOKEN', session);
    const result = await svc(['--url', daemon.url, 'mcp', 'config', '--name', 'monitoring', '--client', 'claude-desktop', '--org', 'default']);
    expect(result.code, result.stderr).toBe(0);
    const entry = JSON.parse(result.stdout).mcpServers.monitoring;
    expect(entry).toMatchObject({ type: 'http', url: `${daemon.url}/api/v1/mcp` });
    const minted = entry.headers.Authorization.replace(/^Bearer /, '');
    expect(minted).not.toBe(session);
    expect(minted.startsWith('svc_pat_')).toBe(true);
    const listed = (await daemon.request('GET', '/auth/tokens', { token: session })).body.items;
    const token = listed.find((item: { name: string }) => item.name === 'claude-desktop');
    expect(token).toMatchObject({ org: 'default', scopes: ['mcp'], expiresAt: null });
    expect(result.stderr).toContain(`svc token revoke ${token.uid}`);
    // The minted token works on the MCP endpoint.
    const client = new Client({ name: 'configured-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }));
    await client.close();

    const readOnly = await svc(['--url', daemon.url, 'mcp', 'config', '--client', 'reader', '--read-only', '--org', 'default']);
    expect(readOnly.code, readOnly.stderr).toBe(0);
    const reader = (await daemon.request('GET', '/auth/tokens', { token: session })).body.items.find((item: { name: string }) => item.name === 'reader');
    expect(reader.scopes).toEqual(['mcp:read']);

    vi.stubEnv('SVC_TOKEN', '');
    const none = await svc(['--url', 'https://mon.example.com', 'mcp', 'config']);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout).mcpServers.svc.headers.Authorization).toBe('Bearer <TOKEN>');
    expect(none.stderr).toContain('replace <TOKEN> with a personal access token');

    const bad = await svc(['mcp', 'config', '--name', 'no spaces']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--name takes');
  });
});
