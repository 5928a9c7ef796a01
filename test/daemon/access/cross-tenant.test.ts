import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../daemon/routes/index.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { createOrg, fillPath, mintToken } from './helpers.js';

const orgRoutes = ROUTES.filter((spec) => spec.path === '/orgs/:org' || spec.path.startsWith('/orgs/:org/'));

/** A member of one organization learns nothing of another: every route of it answers 404. */
describe.each(DATABASE_KINDS)('cross-tenant [%s]', (kind) => {
  let daemon: TestDaemon;
  let ownerA: { token: string; uid: string };
  let tokenA: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    ownerA = await daemon.register('owner-a@example.com');
    await createOrg(daemon, ownerA.token, 'org-a');
    tokenA = await mintToken(daemon, ownerA.token, 'org-a');
    const ownerB = await daemon.register('owner-b@example.com');
    await createOrg(daemon, ownerB.token, 'org-b');
  });
  afterAll(() => daemon.stop());

  it.each(orgRoutes.map((spec) => [`${spec.method} ${spec.path}`, spec] as const))('%s of org B answers 404 to the owner of org A', async (_name, spec) => {
    for (const credential of [ownerA.token, tokenA]) {
      const res = await daemon.request(spec.method, fillPath(spec.path, 'org-b'), { token: credential, body: spec.method === 'GET' ? undefined : {} });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      // The same answer as for an organization that does not exist at all.
      const missing = await daemon.request(spec.method, fillPath(spec.path, 'no-such-org'), {
        token: credential,
        body: spec.method === 'GET' ? undefined : {},
      });
      expect(missing.status).toBe(404);
      expect(res.body.error.message).toBe(missing.body.error.message.replace('no-such-org', 'org-b'));
    }
  });

  it('cannot mint a token for org B, nor list it among its organizations', async () => {
    const res = await daemon.request('POST', '/auth/tokens', { token: ownerA.token, body: { name: 'x', org: 'org-b' } });
    expect(res.status).toBe(404);
    const orgs = await daemon.request('GET', '/orgs', { token: ownerA.token });
    expect(orgs.body.items.map((o: { slug: string }) => o.slug)).toEqual(['org-a']);
  });

  it('cannot accept an invitation to org B sent to someone else', async () => {
    const ownerB = await daemon.login('owner-b@example.com', 'password-123');
    const invited = await daemon.request('POST', '/orgs/org-b/invitations', { token: ownerB, body: { email: 'someone@example.com', role: 'admin' } });
    const res = await daemon.request('POST', `/invitations/${invited.body.token}/accept`, { token: ownerA.token });
    expect(res.status).toBe(403);
    expect((await daemon.request('GET', '/orgs/org-b', { token: ownerA.token })).status).toBe(404);
  });
});
