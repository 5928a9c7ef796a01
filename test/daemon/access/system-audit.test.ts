import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinOrganization } from '../../../daemon/access/membership.js';
import { createWorkspaceOrganization } from '../../../daemon/auth/oauth/workspace-links.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember, createOrg, roleOf } from './helpers.js';

describe.each(DATABASE_KINDS)('the server audit log and super-admin ownership [%s]', (kind) => {
  let daemon: TestDaemon;
  let superAdmin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    superAdmin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  it('records the deletion of an organization in the server log, which outlives the organization’s own', async () => {
    const owner = await daemon.register('owner@gone.test');
    await createOrg(daemon, owner.token, 'gone-co', 'Gone Co');
    await addMember(daemon, 'gone-co', owner.token, 'member@gone.test', 'user');
    expect((await daemon.request('DELETE', '/orgs/gone-co', { token: owner.token })).status).toBe(204);

    const log = await daemon.request('GET', '/system/audit-log?kind=organization.deleted', { token: superAdmin });
    expect(log.status).toBe(200);
    expect(log.body.items).toEqual([
      expect.objectContaining({
        kind: 'organization.deleted',
        actor: { uid: owner.uid, email: 'owner@gone.test' },
        organizationUid: expect.any(String),
        data: { slug: 'gone-co', name: 'Gone Co', memberCount: 2, createdAt: expect.any(String) },
      }),
    ]);
    const orgLog = await daemon.deps.db.kysely
      .selectFrom('audit_log')
      .select('uid')
      .where('organization_uid', '=', log.body.items[0].organizationUid)
      .execute();
    expect(orgLog).toEqual([]);
    expect((await daemon.request('GET', '/system/audit-log?kind=nonsense', { token: superAdmin })).status).toBe(400);
  });

  it('is for super admins only', async () => {
    const someone = await daemon.register('someone@gone.test');
    expect((await daemon.request('GET', '/system/audit-log', { token: someone.token })).status).toBe(403);
    expect((await daemon.request('POST', '/system/orgs/default/owners', { token: someone.token, body: { userUid: someone.uid } })).status).toBe(403);
  });

  it('lets a super admin make a member of a team-chat organization (admin, no owner) its owner', async () => {
    const installer = await daemon.register('installer@chat.test');
    const org = await createWorkspaceOrganization(daemon.deps, { workspaceId: 'T0WORKSPACE', workspaceName: 'Chat Team', actorUid: installer.uid });
    await joinOrganization(daemon.deps, { organizationUid: org.uid, userUid: installer.uid, role: 'user', roleIfEmpty: 'admin', via: 'team_chat' });
    expect(await roleOf(daemon, org.slug, installer.token)).toBe('admin');
    // Nobody can rename or delete it yet.
    expect((await daemon.request('DELETE', `/orgs/${org.slug}`, { token: installer.token })).status).toBe(403);

    const stranger = await daemon.register('stranger@chat.test');
    const notMember = await daemon.request('POST', `/system/orgs/${org.slug}/owners`, { token: superAdmin, body: { userUid: stranger.uid } });
    expect(notMember.status).toBe(404);
    expect((await daemon.request('POST', '/system/orgs/no-such-org/owners', { token: superAdmin, body: { userUid: installer.uid } })).status).toBe(404);

    const granted = await daemon.request('POST', `/system/orgs/${org.slug}/owners`, { token: superAdmin, body: { userUid: installer.uid } });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body).toMatchObject({ uid: installer.uid, role: 'owner' });
    expect(await roleOf(daemon, org.slug, installer.token)).toBe('owner');
    expect((await daemon.request('PATCH', `/orgs/${org.slug}`, { token: installer.token, body: { name: 'Renamed at last' } })).status).toBe(200);

    const orgLog = await daemon.request('GET', `/orgs/${org.slug}/audit-log?kind=member.role_changed`, { token: installer.token });
    expect(orgLog.body.items[0]).toMatchObject({ target: { uid: installer.uid }, data: { from: 'admin', to: 'owner', by: 'super_admin' } });
    const serverLog = await daemon.request('GET', '/system/audit-log?kind=organization.owner_granted', { token: superAdmin });
    expect(serverLog.body.items[0]).toMatchObject({
      organizationUid: org.uid,
      target: { uid: installer.uid },
      data: { slug: org.slug, from: 'admin', ownersNow: 1 },
    });
    // Granting again changes nothing and records nothing.
    expect((await daemon.request('POST', `/system/orgs/${org.slug}/owners`, { token: superAdmin, body: { userUid: installer.uid } })).status).toBe(200);
    expect((await daemon.request('GET', '/system/audit-log?kind=organization.owner_granted', { token: superAdmin })).body.items).toHaveLength(1);
  });
});
