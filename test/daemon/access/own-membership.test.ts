import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember, createOrg, mintToken, roleOf } from './helpers.js';

describe.each(DATABASE_KINDS)('a member leaving, a requester withdrawing [%s]', (kind) => {
  let daemon: TestDaemon;
  let owner: { token: string; uid: string };
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    owner = await daemon.register('owner@leave.test');
    await createOrg(daemon, owner.token, 'leave-co');
  });
  afterAll(() => daemon.stop());

  const auditKinds = async (kind: string) =>
    (await daemon.request('GET', `/orgs/leave-co/audit-log?kind=${kind}`, { token: owner.token })).body.items as {
      kind: string;
      actor: { uid: string };
      data: Record<string, unknown>;
    }[];

  it('lets any member, a viewer too, leave: the membership and its tokens end, and the log says so', async () => {
    for (const role of ['viewer', 'user', 'admin']) {
      const member = await addMember(daemon, 'leave-co', owner.token, `${role}@leave.test`, role);
      const token = await mintToken(daemon, member.token, 'leave-co');
      // A token cannot do it: leaving is the account's act.
      expect((await daemon.request('DELETE', '/orgs/leave-co/members/me', { token })).status).toBe(403);
      const left = await daemon.request('DELETE', '/orgs/leave-co/members/me', { token: member.token });
      expect(left.status, JSON.stringify(left.body)).toBe(204);
      expect(await roleOf(daemon, 'leave-co', member.token)).toBeUndefined();
      expect((await daemon.request('GET', '/orgs/leave-co/checks', { token })).status).toBe(401);
      // Gone means gone: the organization is now unknown to them.
      expect((await daemon.request('DELETE', '/orgs/leave-co/members/me', { token: member.token })).status).toBe(404);
      expect((await auditKinds('member.left'))[0]).toMatchObject({ actor: { uid: member.uid }, data: { role, tokensRevoked: 1 } });
    }
  });

  it('refuses the last owner (409 LAST_OWNER), and lets an owner leave once another owner exists', async () => {
    const refused = await daemon.request('DELETE', '/orgs/leave-co/members/me', { token: owner.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.reason).toBe('LAST_OWNER');
    expect(refused.body.error.message).toContain('last owner');
    expect(await roleOf(daemon, 'leave-co', owner.token)).toBe('owner');

    await createOrg(daemon, owner.token, 'two-owners');
    const second = await addMember(daemon, 'two-owners', owner.token, 'second-owner@leave.test', 'owner');
    expect((await daemon.request('DELETE', '/orgs/two-owners/members/me', { token: second.token })).status).toBe(204);
    expect((await daemon.request('GET', '/orgs/two-owners/members', { token: owner.token })).body.items.map((m: { uid: string }) => m.uid)).toEqual([
      owner.uid,
    ]);
  });

  it('shows a requester their own requests and lets them withdraw a pending one, then ask again', async () => {
    const asker = await daemon.register('asker@leave.test');
    const other = await daemon.register('other-asker@leave.test');
    expect((await daemon.request('POST', '/membership-requests', { token: asker.token, body: { org: 'leave-co', message: 'let me in' } })).status).toBe(202);
    expect((await daemon.request('POST', '/membership-requests', { token: other.token, body: { org: 'leave-co' } })).status).toBe(202);

    const mine = await daemon.request('GET', '/membership-requests', { token: asker.token });
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([expect.objectContaining({ org: 'leave-co', status: 'pending', message: 'let me in', via: 'request' })]);
    const uid = mine.body.items[0].uid as string;

    // Nobody else's: 404, and the request is untouched.
    expect((await daemon.request('DELETE', `/membership-requests/${uid}`, { token: other.token })).status).toBe(404);
    expect((await daemon.request('DELETE', `/membership-requests/${uid}`, { token: await mintToken(daemon, owner.token, 'leave-co') })).status).toBe(403);
    expect((await daemon.request('DELETE', `/membership-requests/${uid}`, { token: asker.token })).status).toBe(204);
    expect((await daemon.request('GET', '/membership-requests', { token: asker.token })).body.items).toEqual([]);
    expect((await daemon.request('GET', '/membership-requests?status=all', { token: asker.token })).body.items).toEqual([
      expect.objectContaining({ uid, status: 'withdrawn' }),
    ]);
    expect((await daemon.request('DELETE', `/membership-requests/${uid}`, { token: asker.token })).body.error.details.reason).toBe('ALREADY_DECIDED');

    // Admins see it withdrawn, cannot approve it, and the log records it.
    const admin = await daemon.request('GET', '/orgs/leave-co/membership-requests?status=withdrawn', { token: owner.token });
    expect(admin.body.items).toEqual([expect.objectContaining({ uid, status: 'withdrawn', decidedBy: asker.uid })]);
    expect((await daemon.request('POST', `/orgs/leave-co/membership-requests/${uid}/approve`, { token: owner.token, body: {} })).status).toBe(409);
    expect((await auditKinds('membership_request.withdrawn'))[0]).toMatchObject({ actor: { uid: asker.uid }, data: { requestUid: uid } });

    // The pending slot is free again.
    expect((await daemon.request('POST', '/membership-requests', { token: asker.token, body: { org: 'leave-co' } })).status).toBe(202);
    expect((await daemon.request('GET', '/membership-requests', { token: asker.token })).body.items).toHaveLength(1);
  });
});
