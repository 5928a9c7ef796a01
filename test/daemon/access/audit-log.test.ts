import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember, createOrg } from './helpers.js';

describe.each(DATABASE_KINDS)('audit log [%s]', (kind) => {
  let daemon: TestDaemon;
  // A clock that stands still: entries written in the same instant must still come out in order.
  const clock = manualClock(new Date('2026-06-01T12:00:00Z'));
  let owner: { token: string; uid: string };
  let member: { token: string; uid: string };
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    owner = await daemon.register('owner@example.com');
    await createOrg(daemon, owner.token, 'acme');
    member = await addMember(daemon, 'acme', owner.token, 'member@example.com', 'user');
    await daemon.request('PATCH', `/orgs/acme/members/${member.uid}`, { token: owner.token, body: { role: 'admin' } });
    const minted = await daemon.request('POST', '/auth/tokens', { token: member.token, body: { name: 'ci', org: 'acme' } });
    await daemon.request('DELETE', `/auth/tokens/${minted.body.uid}`, { token: member.token });
    await daemon.request('PATCH', '/auth/me', { token: member.token, body: { email: 'member2@example.com', currentPassword: 'password-123' } });
    await daemon.request('DELETE', `/orgs/acme/members/${member.uid}`, { token: owner.token });
  });
  afterAll(() => daemon.stop());

  const log = (query = '') => daemon.request('GET', `/orgs/acme/audit-log${query}`, { token: owner.token });

  it('lists the events newest first, with actor, target and data', async () => {
    const res = await log();
    expect(res.status).toBe(200);
    expect(res.body.items.map((e: { kind: string }) => e.kind)).toEqual([
      'member.removed',
      'auth.email_changed',
      'token.revoked',
      'token.created',
      'member.role_changed',
      'invitation.accepted',
      'member.joined',
      'invitation.created',
      'organization.created',
    ]);
    expect(res.body.nextCursor).toBeNull();
    const byKind = Object.fromEntries(res.body.items.map((e: { kind: string }) => [e.kind, e]));
    expect(byKind['member.role_changed']).toMatchObject({
      actor: { uid: owner.uid, email: 'owner@example.com' },
      target: { uid: member.uid },
      data: { from: 'user', to: 'admin' },
      createdAt: '2026-06-01T12:00:00.000Z',
    });
    expect(byKind['member.removed']).toMatchObject({
      actor: { uid: owner.uid },
      target: { uid: member.uid, email: 'member2@example.com' },
      data: { role: 'admin', tokensRevoked: 0 },
    });
    expect(byKind['auth.email_changed'].data).toEqual({ oldEmail: 'member@example.com', newEmail: 'member2@example.com', by: 'self' });
    expect(byKind['invitation.accepted']).toMatchObject({ actor: { uid: member.uid }, data: { email: 'member@example.com', role: 'user' } });
  });

  it('filters by kind (repeatable or comma-separated) and refuses unknown kinds', async () => {
    const one = await log('?kind=member.role_changed');
    expect(one.body.items.map((e: { kind: string }) => e.kind)).toEqual(['member.role_changed']);
    const two = await log('?kind=token.created&kind=token.revoked');
    expect(two.body.items.map((e: { kind: string }) => e.kind)).toEqual(['token.revoked', 'token.created']);
    const comma = await log('?kind=token.created,token.revoked');
    expect(comma.body.items).toEqual(two.body.items);
    const unknown = await log('?kind=nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.issues[0].path).toBe('kind');
  });

  it('pages with a cursor, without gaps or repeats', async () => {
    const all = (await log()).body.items.map((e: { uid: string }) => e.uid);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { uid: string }[]; nextCursor: string | null } } = await log(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.body.items.map((e) => e.uid));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
    expect((await log('?limit=1000')).status).toBe(400);
  });

  it('is for admins only', async () => {
    const viewer = await addMember(daemon, 'acme', owner.token, 'viewer@example.com', 'viewer');
    const user = await addMember(daemon, 'acme', owner.token, 'user@example.com', 'user');
    for (const token of [viewer.token, user.token]) {
      const res = await daemon.request('GET', '/orgs/acme/audit-log', { token });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });
});
