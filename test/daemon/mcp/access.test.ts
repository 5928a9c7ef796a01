import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { setRole } from '../../support/members.js';
import { call, checkCount, connectMcp, mcpUrl, member, mintToken, READ_TOOLS, WRITE_TOOLS } from './mcp-client.js';

const candidate = { name: 'Agent made', type: 'http', target: 'https://example.com/agent' };

/** Arguments that would succeed for each write tool, so only authorization can stop them. */
const WRITE_ARGS: Record<string, Record<string, unknown>> = {
  create_check: { check: candidate },
  update_check: { slug: 'existing', changes: { intervalSeconds: 30 } },
  delete_check: { slug: 'existing' },
  run_check: { slug: 'existing' },
};

const READ_ARGS: Record<string, Record<string, unknown>> = {
  list_check_types: {},
  get_check_type_sample: { type: 'tcp' },
  validate_check: { check: candidate },
  list_checks: {},
  get_check: { slug: 'existing' },
  list_incidents: {},
  get_check_results: { slug: 'existing' },
};

/** Every row of the organization's checks, to prove a refused call wrote nothing at all. */
async function checkRows(daemon: TestDaemon) {
  return daemon.deps.db.kysely.selectFrom('checks').selectAll().orderBy('uid').execute();
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

describe.each(DATABASE_KINDS)('MCP authorization [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    const existing = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Existing', type: 'tcp', target: 'db.internal:5432' },
    });
    expect(existing.status).toBe(201);
  });
  afterAll(() => daemon.stop());

  it('an mcp:read token: the read tools work, every write tool is refused by its scope, nothing is written', async () => {
    const client = await connectMcp(daemon, await mintToken(daemon, admin, ['mcp:read']));
    try {
      expect(await toolNames(client)).toEqual([...READ_TOOLS].sort());
      for (const name of READ_TOOLS) {
        const result = await call(client, name, READ_ARGS[name]);
        expect(result.isError, `${name}: ${result.text}`).toBeFalsy();
        expect(result.structuredContent, name).toBeDefined();
      }
      const before = await checkRows(daemon);
      for (const name of WRITE_TOOLS) {
        const result = await call(client, name, WRITE_ARGS[name]);
        expect(result.isError, name).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(result.text).toContain("Refused by the token's scope");
        expect(result.text).toContain(`"${name}" changes data, which needs a token with the "mcp" scope`);
      }
      // The owner's role would allow every write: only the scope stopped them.
      expect(await checkRows(daemon)).toEqual(before);
      expect(before.map((row) => row.slug)).toEqual(['existing']);
    } finally {
      await client.close();
    }
  });

  it('a viewer, by session and by access token: reads work, writes are refused by the role, nothing is written', async () => {
    const viewer = await member(daemon, 'viewer@example.com', 'viewer');
    const viaToken = await connectMcp(daemon, await mintToken(daemon, viewer.token, ['mcp']));
    const viaSession = await connectMcp(daemon, viewer.token);
    try {
      for (const [client, org] of [
        [viaToken, {}],
        [viaSession, { org: 'default' }],
      ] as const) {
        expect(await toolNames(client)).toEqual([...READ_TOOLS].sort());
        for (const name of READ_TOOLS) {
          const result = await call(client, name, { ...READ_ARGS[name], ...(name.includes('check_type') ? {} : org) });
          expect(result.isError, `${name}: ${result.text}`).toBeFalsy();
        }
        const before = await checkRows(daemon);
        for (const name of WRITE_TOOLS) {
          const result = await call(client, name, { ...WRITE_ARGS[name], ...org });
          expect(result.isError, name).toBe(true);
          expect(result.text).toBe(
            `Refused by your role: your role in organization "default" is viewer, which does not allow "${name}" (it needs checks:write, held by the roles owner, admin, user).`,
          );
        }
        expect(await checkRows(daemon)).toEqual(before);
      }
    } finally {
      await viaToken.close();
      await viaSession.close();
    }
  });

  it("a viewer learns no secret names from validate_check, and records no heartbeat: only the ping URL's token does", async () => {
    expect((await daemon.request('PUT', '/orgs/default/secrets/CACHE_PASSWORD', { token: admin, body: { value: 'cache-password-value' } })).status).toBe(200);
    const viewer = await member(daemon, 'secret-prober@example.com', 'viewer');
    const user = await member(daemon, 'secret-user@example.com', 'user');
    const probe = (name: string) => ({
      check: { name: 'Cache', type: 'redis', target: 'cache.example.com:6379', config: { password: `{{secrets.${name}}}` } },
    });
    const asViewer = await connectMcp(daemon, await mintToken(daemon, viewer.token, ['mcp']));
    const asUser = await connectMcp(daemon, await mintToken(daemon, user.token, ['mcp']));
    try {
      const [set, unset] = [await call(asViewer, 'validate_check', probe('CACHE_PASSWORD')), await call(asViewer, 'validate_check', probe('NO_SUCH_SECRET'))];
      expect(set.isError, set.text).toBeFalsy();
      // The same answer whether the secret exists or not, and no name of a secret in it.
      const same = (result: { structuredContent?: unknown; text: string }) =>
        JSON.stringify([result.structuredContent, result.text]).replaceAll('NO_SUCH_SECRET', 'CACHE_PASSWORD');
      expect(same(unset)).toBe(same(set));
      expect(set.structuredContent).not.toHaveProperty('missingSecrets');
      // A member who may create checks is told, as REST's validate tells them.
      expect((await call(asUser, 'validate_check', probe('NO_SUCH_SECRET'))).structuredContent).toMatchObject({ missingSecrets: ['NO_SUCH_SECRET'] });

      // A heartbeat: the viewer's MCP calls record nothing; the ping URL does.
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: 'Nightly job', type: 'heartbeat', config: { periodSeconds: 3600, graceSeconds: 60 } },
      });
      expect(created.status).toBe(201);
      const results = async () => (await daemon.request('GET', '/orgs/default/checks/nightly-job/results', { token: admin })).body.items.length;
      for (const [name, args] of [
        ['run_check', { slug: 'nightly-job' }],
        ['get_check', { slug: 'nightly-job' }],
        ['get_check_results', { slug: 'nightly-job' }],
      ] as const) {
        await call(asViewer, name, args);
      }
      // The ping URL is a credential to record results: never shown to a viewer, by MCP or REST.
      for (const [name, args] of [
        ['get_check', { slug: 'nightly-job' }],
        ['list_checks', {}],
      ] as const) {
        expect(JSON.stringify((await call(asViewer, name, args)).structuredContent)).not.toContain('/ping/');
      }
      expect(JSON.stringify((await daemon.request('GET', '/orgs/default/checks/nightly-job', { token: viewer.token })).body)).not.toContain('/ping/');
      expect(JSON.stringify((await call(asUser, 'get_check', { slug: 'nightly-job' })).structuredContent)).toContain('/ping/');
      expect(await results()).toBe(0);
      const pingUrl = (await daemon.request('GET', '/orgs/default/checks/nightly-job', { token: admin })).body.pingUrl as string;
      expect((await fetch(pingUrl.replace('https://svc.example.com', daemon.url).replace(/^http:\/\/localhost:4000/, daemon.url))).status).toBe(200);
      expect(await results()).toBe(1);
    } finally {
      await asViewer.close();
      await asUser.close();
    }
  });

  it('a demotion between two calls takes effect on the next call, on the same connection', async () => {
    const writer = await member(daemon, 'writer@example.com', 'user');
    const client = await connectMcp(daemon, await mintToken(daemon, writer.token, ['mcp']));
    try {
      expect(await toolNames(client)).toContain('create_check');
      const first = await call(client, 'create_check', { check: { ...candidate, name: 'Before demotion' } });
      expect(first.isError, first.text).toBeFalsy();

      // An admin demotes the member through the API, between two calls of the same client.
      const demoted = await daemon.request('PATCH', `/orgs/default/members/${writer.uid}`, { token: admin, body: { role: 'viewer' } });
      expect(demoted.status).toBe(200);
      const count = await checkCount(daemon);
      const second = await call(client, 'create_check', { check: { ...candidate, name: 'After demotion' } });
      expect(second.isError).toBe(true);
      expect(second.text).toContain('your role in organization "default" is viewer');
      expect(await checkCount(daemon)).toBe(count);
      expect(await toolNames(client)).toEqual([...READ_TOOLS].sort());

      // A promotion works the same way; a removal ends the token at once.
      await setRole(daemon, writer.uid, 'user');
      expect((await call(client, 'update_check', { slug: 'before-demotion', changes: { enabled: false } })).isError).toBeFalsy();
      await daemon.deps.db.kysely.deleteFrom('members').where('user_uid', '=', writer.uid).execute();
      await expect(call(client, 'list_checks')).rejects.toSatisfy((error) => error instanceof StreamableHTTPError && error.code === 401);
    } finally {
      await client.close();
    }
  });

  it('a session: a demotion and a removal between two calls take effect on the next call', async () => {
    const admin2 = await member(daemon, 'admin2@example.com', 'admin');
    const client = await connectMcp(daemon, admin2.token);
    try {
      const first = await call(client, 'create_check', { org: 'default', check: { ...candidate, name: 'Session made' } });
      expect(first.isError, first.text).toBeFalsy();
      await setRole(daemon, admin2.uid, 'viewer');
      const second = await call(client, 'delete_check', { org: 'default', slug: 'session-made' });
      expect(second.text).toContain('your role in organization "default" is viewer, which does not allow "delete_check"');
      expect((await call(client, 'get_check', { org: 'default', slug: 'session-made' })).isError).toBeFalsy();

      await daemon.deps.db.kysely.deleteFrom('members').where('user_uid', '=', admin2.uid).execute();
      const removed = await call(client, 'get_check', { org: 'default', slug: 'session-made' });
      expect(removed.text).toBe('Organization "default" not found, or you are not a member of it.');
      expect(await toolNames(client)).toEqual(['get_check_type_sample', 'list_check_types']);
    } finally {
      await client.close();
    }
  });

  it('a token without an mcp scope gets 403 at the endpoint; no token gets 401', async () => {
    const apiOnly = await mintToken(daemon, admin, ['api']);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(mcpUrl(daemon), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });

    const forbidden = await post({ authorization: `Bearer ${apiOnly}` });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('it needs mcp or mcp:read') });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await anonymous.json()).error.code).toBe('UNAUTHORIZED');
    expect((await post({ authorization: 'Bearer svc_pat_not-a-real-token' })).status).toBe(401);

    // The SDK client sees the same refusals.
    await expect(connectMcp(daemon, apiOnly)).rejects.toSatisfy((error) => error instanceof StreamableHTTPError && error.code === 403);
    await expect(connectMcp(daemon, 'not-a-token')).rejects.toSatisfy((error) => error instanceof StreamableHTTPError && error.code === 401);

    const ok = await post({ authorization: `Bearer ${admin}` });
    expect(ok.status).toBe(200);
    expect((await ok.json()).result.serverInfo.name).toBe('svc');
  });

  it('answers GET and DELETE with 405 (stateless: no stream, no session), after authentication', async () => {
    const token = await mintToken(daemon, admin, ['mcp:read']);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(mcpUrl(daemon), { method, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect((await res.json()).error.code).toBe(-32000);
      expect((await fetch(mcpUrl(daemon), { method })).status).toBe(401);
    }
  });

  it('answers a body that is not JSON-RPC as the transport specifies, and keeps serving', async () => {
    const token = await mintToken(daemon, admin, ['mcp']);
    const post = (body: string, contentType = 'application/json') =>
      fetch(mcpUrl(daemon), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType, accept: 'application/json, text/event-stream' },
        body,
      });
    const garbled = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(garbled.status).toBe(400);
    expect((await garbled.json()).error.code).toBe(-32700);
    expect((await post('{"hello": "world"}')).status).toBe(400);
    expect((await post('method=initialize', 'application/x-www-form-urlencoded')).status).toBe(415);
    const tooLarge = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } }));
    expect(tooLarge.status).toBe(413);
    const client = await connectMcp(daemon, token);
    expect((await call(client, 'list_checks')).isError).toBeFalsy();
    await client.close();
  });

  it('an account that must change its built-in password cannot use the endpoint yet', async () => {
    const fresh = await daemon.register('fresh@example.com');
    await daemon.deps.db.kysely.updateTable('users').set({ must_change_password: 1 }).where('uid', '=', fresh.uid).execute();
    await expect(connectMcp(daemon, fresh.token)).rejects.toSatisfy((error) => error instanceof StreamableHTTPError && error.code === 403);
  });
});
