import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../cli/main.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { mintToken, READ_TOOLS } from './mcp-client.js';

/** Runs the CLI in this process, capturing what it prints. */
async function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await runCli(['node', 'svc', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

describe('svc mcp config', () => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon('sqlite');
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

  it('takes the token from SVC_TOKEN, names the server, and advises on session tokens and a missing token', async () => {
    vi.stubEnv('SVC_TOKEN', 'eyJ.session.jwt');
    const session = await svc(['--url', 'https://mon.example.com', 'mcp', 'config', '--name', 'monitoring']);
    expect(JSON.parse(session.stdout).mcpServers.monitoring).toEqual({
      type: 'http',
      url: 'https://mon.example.com/api/v1/mcp',
      headers: { Authorization: 'Bearer eyJ.session.jwt' },
    });
    expect(session.stderr).toContain('this is a session token');

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
