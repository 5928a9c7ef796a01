import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinOrganization } from '../../../daemon/access/membership.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { failInsertsWhere } from '../../support/inject-failure.js';
import { addMember, createOrg } from './helpers.js';

describe.each(DATABASE_KINDS)('organizations and members [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(() => daemon.stop());

  it('creates an organization with its creator as owner, lists and reads it', async () => {
    const ann = await daemon.register('ann@example.com');
    const created = await daemon.request('POST', '/orgs', { token: ann.token, body: { slug: 'ann-co', name: 'Ann & Co' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: 'ann-co', name: 'Ann & Co', role: 'owner', memberCount: 1, memberLimit: null, registrationEmailPattern: null });
    const list = await daemon.request('GET', '/orgs', { token: ann.token });
    expect(list.body.items).toEqual([expect.objectContaining({ slug: 'ann-co', role: 'owner' })]);
    expect((await daemon.request('GET', '/orgs/ann-co', { token: ann.token })).body.role).toBe('owner');
    const me = await daemon.request('GET', '/auth/me', { token: ann.token });
    expect(me.body.organizations).toEqual([{ slug: 'ann-co', name: 'Ann & Co', role: 'owner' }]);
  });

  it('refuses a taken slug (409 SLUG_TAKEN) and an invalid one (400)', async () => {
    const bob = await daemon.register('bob@example.com');
    const taken = await daemon.request('POST', '/orgs', { token: bob.token, body: { slug: 'ann-co', name: 'Mine' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details.reason).toBe('SLUG_TAKEN');
    const bad = await daemon.request('POST', '/orgs', { token: bob.token, body: { slug: 'Not A Slug', name: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['name', 'slug']);
  });

  it('lets only an owner rename and delete; an admin changes the settings', async () => {
    const owner = await daemon.register('owner1@example.com');
    await createOrg(daemon, owner.token, 'renamable');
    const admin = await addMember(daemon, 'renamable', owner.token, 'admin1@example.com', 'admin');
    const rename = await daemon.request('PATCH', '/orgs/renamable', { token: admin.token, body: { name: 'New name' } });
    expect(rename.status).toBe(403);
    expect(rename.body.error.code).toBe('FORBIDDEN');
    const limit = await daemon.request('PATCH', '/orgs/renamable', {
      token: admin.token,
      body: { memberLimit: 10, registrationEmailPattern: '@renamable\\.test$' },
    });
    expect(limit.status).toBe(200);
    expect(limit.body).toMatchObject({ memberLimit: 10, registrationEmailPattern: '@renamable\\.test$', role: 'admin' });
    expect((await daemon.request('PATCH', '/orgs/renamable', { token: owner.token, body: { name: 'New name' } })).body.name).toBe('New name');
    expect((await daemon.request('DELETE', '/orgs/renamable', { token: admin.token })).status).toBe(403);
    expect((await daemon.request('DELETE', '/orgs/renamable', { token: owner.token })).status).toBe(204);
    expect((await daemon.request('GET', '/orgs/renamable', { token: owner.token })).status).toBe(404);
    expect((await daemon.request('GET', '/auth/me', { token: admin.token })).body.organizations).toEqual([]);
  });

  it('validates settings: an invalid pattern, a limit below 1, an empty body', async () => {
    const owner = await daemon.register('owner2@example.com');
    await createOrg(daemon, owner.token, 'settings');
    const res = await daemon.request('PATCH', '/orgs/settings', { token: owner.token, body: { memberLimit: 0, registrationEmailPattern: '([a-z' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['memberLimit', 'registrationEmailPattern']);
    expect((await daemon.request('PATCH', '/orgs/settings', { token: owner.token, body: {} })).status).toBe(400);
    expect((await daemon.request('PATCH', '/orgs/settings', { token: owner.token, body: { slug: 'x' } })).status).toBe(400);
  });

  it('changes the name, the limit and the pattern together or not at all', async () => {
    const owner = await daemon.register('atomic-owner@example.com');
    await createOrg(daemon, owner.token, 'atomic');
    const before = (await daemon.request('GET', '/orgs/atomic', { token: owner.token })).body;
    const restore = await failInsertsWhere(daemon, 'audit_log', 'kind', 'organization.updated');
    try {
      const res = await daemon.request('PATCH', '/orgs/atomic', {
        token: owner.token,
        body: { name: 'Half done', memberLimit: 5, registrationEmailPattern: '@atomic\\.test$' },
      });
      expect(res.status).toBe(500);
    } finally {
      await restore();
    }
    expect((await daemon.request('GET', '/orgs/atomic', { token: owner.token })).body).toEqual(before);
  });

  it('lists members; an admin changes roles, but granting or revoking owner takes an owner', async () => {
    const owner = await daemon.register('owner3@example.com');
    await createOrg(daemon, owner.token, 'roles');
    const admin = await addMember(daemon, 'roles', owner.token, 'admin3@example.com', 'admin');
    const user = await addMember(daemon, 'roles', owner.token, 'user3@example.com', 'user');
    const members = await daemon.request('GET', '/orgs/roles/members', { token: user.token });
    expect(members.body.items.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual([
      'admin3@example.com:admin',
      'owner3@example.com:owner',
      'user3@example.com:user',
    ]);

    const toViewer = await daemon.request('PATCH', `/orgs/roles/members/${user.uid}`, { token: admin.token, body: { role: 'viewer' } });
    expect(toViewer.status).toBe(200);
    expect(toViewer.body).toMatchObject({ uid: user.uid, role: 'viewer' });
    const grant = await daemon.request('PATCH', `/orgs/roles/members/${user.uid}`, { token: admin.token, body: { role: 'owner' } });
    expect(grant.status).toBe(403);
    const revoke = await daemon.request('PATCH', `/orgs/roles/members/${owner.uid}`, { token: admin.token, body: { role: 'admin' } });
    expect(revoke.status).toBe(403);
    expect((await daemon.request('PATCH', `/orgs/roles/members/${user.uid}`, { token: owner.token, body: { role: 'owner' } })).status).toBe(200);
    expect((await daemon.request('PATCH', `/orgs/roles/members/${user.uid}`, { token: owner.token, body: { role: 'superuser' } })).status).toBe(400);
    expect((await daemon.request('PATCH', '/orgs/roles/members/nobody', { token: owner.token, body: { role: 'user' } })).status).toBe(404);
  });

  it('always keeps one owner: the last owner can be neither demoted nor removed', async () => {
    const owner = await daemon.register('owner4@example.com');
    await createOrg(daemon, owner.token, 'last-owner');
    const demote = await daemon.request('PATCH', `/orgs/last-owner/members/${owner.uid}`, { token: owner.token, body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.details.reason).toBe('LAST_OWNER');
    const remove = await daemon.request('DELETE', `/orgs/last-owner/members/${owner.uid}`, { token: owner.token });
    expect(remove.status).toBe(409);
    expect(remove.body.error.details.reason).toBe('LAST_OWNER');
    // With a second owner, the first may step down.
    const second = await addMember(daemon, 'last-owner', owner.token, 'owner4b@example.com', 'owner');
    expect((await daemon.request('PATCH', `/orgs/last-owner/members/${owner.uid}`, { token: second.token, body: { role: 'admin' } })).status).toBe(200);
    expect((await daemon.request('PATCH', `/orgs/last-owner/members/${second.uid}`, { token: second.token, body: { role: 'admin' } })).status).toBe(409);
  });

  it('keeps one owner when two owners demote each other at the same moment', async () => {
    const a = await daemon.register('race-a@example.com');
    await createOrg(daemon, a.token, 'race');
    const b = await addMember(daemon, 'race', a.token, 'race-b@example.com', 'owner');
    const results = await Promise.all([
      daemon.request('PATCH', `/orgs/race/members/${b.uid}`, { token: a.token, body: { role: 'admin' } }),
      daemon.request('PATCH', `/orgs/race/members/${a.uid}`, { token: b.token, body: { role: 'admin' } }),
    ]);
    const owners = await daemon.deps.db.kysely
      .selectFrom('members')
      .innerJoin('organizations', 'organizations.uid', 'members.organization_uid')
      .select('members.role')
      .where('organizations.slug', '=', 'race')
      .where('members.role', '=', 'owner')
      .execute();
    expect(owners.length).toBe(1);
    // The loser is refused either as no longer an owner (403) or as the last owner's target (409).
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
  });

  it('removes a member: an admin removes a user but not an owner; the member’s tokens are revoked', async () => {
    const owner = await daemon.register('owner5@example.com');
    await createOrg(daemon, owner.token, 'removal');
    const admin = await addMember(daemon, 'removal', owner.token, 'admin5@example.com', 'admin');
    const user = await addMember(daemon, 'removal', owner.token, 'user5@example.com', 'user');
    const minted = await daemon.request('POST', '/auth/tokens', { token: user.token, body: { name: 'ci', org: 'removal' } });
    expect((await daemon.request('DELETE', `/orgs/removal/members/${owner.uid}`, { token: admin.token })).status).toBe(403);
    expect((await daemon.request('DELETE', `/orgs/removal/members/${user.uid}`, { token: admin.token })).status).toBe(204);
    expect((await daemon.request('GET', '/orgs/removal', { token: user.token })).status).toBe(404);
    const row = await daemon.deps.db.kysely.selectFrom('personal_tokens').select('revoked_at').where('uid', '=', minted.body.uid).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    expect((await daemon.request('DELETE', `/orgs/removal/members/${user.uid}`, { token: admin.token })).status).toBe(404);
  });

  it('refuses joins beyond the member limit with 409 MEMBER_LIMIT_REACHED', async () => {
    const owner = await daemon.register('owner6@example.com');
    await createOrg(daemon, owner.token, 'small');
    const invite = await daemon.request('POST', '/orgs/small/invitations', { token: owner.token, body: { email: 'late@example.com', role: 'user' } });
    await daemon.request('PATCH', '/orgs/small', { token: owner.token, body: { memberLimit: 1 } });
    const late = await daemon.register('late@example.com');
    const accepted = await daemon.request('POST', `/invitations/${invite.body.token}/accept`, { token: late.token });
    expect(accepted.status).toBe(409);
    expect(accepted.body.error.code).toBe('CONFLICT');
    expect(accepted.body.error.details.reason).toBe('MEMBER_LIMIT_REACHED');
    expect(accepted.body.error.message).toMatch(/member limit of 1/);
    const another = await daemon.request('POST', '/orgs/small/invitations', { token: owner.token, body: { email: 'later@example.com', role: 'user' } });
    expect(another.status).toBe(409);
    expect(another.body.error.details.reason).toBe('MEMBER_LIMIT_REACHED');
    // Raising the limit lets the same invitation through.
    await daemon.request('PATCH', '/orgs/small', { token: owner.token, body: { memberLimit: null } });
    expect((await daemon.request('POST', `/invitations/${invite.body.token}/accept`, { token: late.token })).status).toBe(200);
  });

  it('holds the member limit under concurrent joins (joinOrganization)', async () => {
    const owner = await daemon.register('owner8@example.com');
    await createOrg(daemon, owner.token, 'crowded');
    await daemon.request('PATCH', '/orgs/crowded', { token: owner.token, body: { memberLimit: 3 } });
    const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'crowded').executeTakeFirstOrThrow();
    const people = await Promise.all([1, 2, 3, 4, 5].map((i) => daemon.register(`crowd${i}@example.com`)));
    const results = await Promise.all(
      people.map((p) => joinOrganization(daemon.deps, { organizationUid: org.uid, userUid: p.uid, role: 'user', via: 'invitation' })),
    );
    expect(results.filter((r) => r.status === 'joined')).toHaveLength(2);
    expect(results.filter((r) => r.status === 'member-limit')).toEqual([
      { status: 'member-limit', limit: 3 },
      { status: 'member-limit', limit: 3 },
      { status: 'member-limit', limit: 3 },
    ]);
    expect((await daemon.request('GET', '/orgs/crowded', { token: owner.token })).body.memberCount).toBe(3);
    const again = await joinOrganization(daemon.deps, { organizationUid: org.uid, userUid: owner.uid, role: 'viewer', via: 'invitation' });
    expect(again).toEqual({ status: 'already-member', role: 'owner' });
  });

  it('makes the first member of an empty organization the roleIfEmpty', async () => {
    const owner = await daemon.register('owner9@example.com');
    await createOrg(daemon, owner.token, 'emptied');
    const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'emptied').executeTakeFirstOrThrow();
    await daemon.deps.db.kysely.deleteFrom('members').where('organization_uid', '=', org.uid).execute();
    const first = await daemon.register('first@example.com');
    const second = await daemon.register('second@example.com');
    expect(await joinOrganization(daemon.deps, { organizationUid: org.uid, userUid: first.uid, role: 'user', roleIfEmpty: 'admin', via: 'team_chat' })).toEqual(
      { status: 'joined', role: 'admin' },
    );
    expect(
      await joinOrganization(daemon.deps, { organizationUid: org.uid, userUid: second.uid, role: 'user', roleIfEmpty: 'admin', via: 'team_chat' }),
    ).toEqual({ status: 'joined', role: 'user' });
  });

  it('never lets a personal access token create an organization', async () => {
    const owner = await daemon.register('owner7@example.com');
    await createOrg(daemon, owner.token, 'pat-org');
    const pat = await daemon.request('POST', '/auth/tokens', { token: owner.token, body: { name: 'x', org: 'pat-org' } });
    const res = await daemon.request('POST', '/orgs', { token: pat.body.token, body: { slug: 'pat-made', name: 'x' } });
    expect(res.status).toBe(403);
    expect((await daemon.request('GET', '/orgs', { token: pat.body.token })).body.items.map((o: { slug: string }) => o.slug)).toEqual(['pat-org']);
  });
});
