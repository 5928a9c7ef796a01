import type { Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateRequest } from '../../../daemon/access/authenticate.js';
import { AccessDenied, authorize, type Action } from '../../../daemon/access/authorize.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember, createOrg, mintToken } from './helpers.js';

const bearer = (token: string) => ({ get: (name: string) => (name.toLowerCase() === 'authorization' ? `Bearer ${token}` : '') }) as unknown as Context;

/** The refusal reason of an action, or 'allowed'. */
async function decide(daemon: TestDaemon, credential: string, action: Action): Promise<string> {
  const auth = (await authenticateRequest(daemon.deps, bearer(credential)))!;
  try {
    await authorize(daemon.deps, auth, action);
    return 'allowed';
  } catch (error) {
    if (!(error instanceof AccessDenied)) throw error;
    expect(error.status).toBe(error.refusal.reason === 'organization' ? 404 : 403);
    return error.refusal.reason;
  }
}

describe.each(DATABASE_KINDS)('one authorization for REST and MCP [%s]', (kind) => {
  let daemon: TestDaemon;
  let viewer: string;
  let readOnlyToken: string;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    const admin = await daemon.adminToken();
    await createOrg(daemon, admin, 'acme');
    await createOrg(daemon, admin, 'beta');
    viewer = (await addMember(daemon, 'acme', admin, 'vic@example.com', 'viewer')).token;
    const invitation = await daemon.request('POST', '/orgs/beta/invitations', { token: admin, body: { email: 'vic@example.com', role: 'viewer' } });
    expect((await daemon.request('POST', `/invitations/${invitation.body.token}/accept`, { token: viewer })).status).toBe(200);
    readOnlyToken = await mintToken(daemon, viewer, 'acme', ['api:read', 'mcp:read']);
  });
  afterAll(() => daemon.stop());

  it('decides scope, organization, token organization and role the same way on both surfaces', async () => {
    for (const surface of ['rest', 'mcp'] as const) {
      expect(await decide(daemon, readOnlyToken, { surface, writes: false, org: { slug: 'acme', permission: 'checks:read' } })).toBe('allowed');
      expect(await decide(daemon, readOnlyToken, { surface, writes: true, org: { slug: 'acme', permission: 'checks:write' } })).toBe('scope');
      expect(await decide(daemon, readOnlyToken, { surface, writes: false, org: { slug: 'beta', permission: 'checks:read' } })).toBe('token-organization');
      expect(await decide(daemon, viewer, { surface, writes: false, org: { slug: 'nowhere', permission: 'checks:read' } })).toBe('organization');
      expect(await decide(daemon, viewer, { surface, writes: true, org: { slug: 'acme', permission: 'checks:write' } })).toBe('role');
      expect(await decide(daemon, viewer, { surface, writes: true, org: { slug: 'beta', permission: 'checks:read' } })).toBe('allowed');
    }
  });

  it('reads the role now: a demotion counts on the very next decision', async () => {
    const admin = await daemon.adminToken();
    const { token, uid } = await addMember(daemon, 'acme', admin, 'dee@example.com', 'user');
    expect(await decide(daemon, token, { surface: 'mcp', writes: true, org: { slug: 'acme', permission: 'checks:write' } })).toBe('allowed');
    const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'acme').executeTakeFirstOrThrow();
    await daemon.deps.db.kysely.updateTable('members').set({ role: 'viewer' }).where('user_uid', '=', uid).where('organization_uid', '=', org.uid).execute();
    expect(await decide(daemon, token, { surface: 'rest', writes: true, org: { slug: 'acme', permission: 'checks:write' } })).toBe('role');
  });
});
