import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { sha256 } from '../../../daemon/crypto/tokens.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';
import { addMember, createOrg } from './helpers.js';
import { linkToken, waitForMail } from './mail.js';

describe.each(DATABASE_KINDS)('invitations [%s]', (kind) => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let owner: { token: string; uid: string };
  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { clock, env: { SVC_SMTP_URL: smtp.url, SVC_BASE_URL: 'https://svc.example.com/' } });
    owner = await daemon.register('owner@example.com');
    await createOrg(daemon, owner.token, 'acme', 'Acme');
  });
  afterAll(async () => {
    await daemon.stop();
    await smtp.close();
  });

  it('returns the link once, stores only its hash, mails it, and the invited account accepts it', async () => {
    const res = await daemon.request('POST', '/orgs/acme/invitations', { token: owner.token, body: { email: 'Dana@Example.com', role: 'admin' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: 'dana@example.com', role: 'admin', status: 'pending', expiresAt: '2026-03-08T10:00:00.000Z' });
    expect(res.body.url).toBe(`https://svc.example.com/d/invitations/accept#token=${res.body.token}`);
    const row = await daemon.deps.db.kysely.selectFrom('invitations').selectAll().where('uid', '=', res.body.uid).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(res.body.token));
    expect(JSON.stringify(row)).not.toContain(res.body.token);

    const mail = await waitForMail(smtp, 'dana@example.com', 'invited to join Acme');
    expect(linkToken(mail)).toBe(res.body.token);
    expect(mail.text).toContain('as admin');

    const list = await daemon.request('GET', '/orgs/acme/invitations', { token: owner.token });
    expect(list.body.items[0]).toMatchObject({ uid: res.body.uid, status: 'pending' });
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);

    const dana = await daemon.register('dana@example.com');
    const accepted = await daemon.request('POST', `/invitations/${res.body.token}/accept`, { token: dana.token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ org: 'acme', role: 'admin' });
    expect((await daemon.request('GET', '/orgs/acme', { token: dana.token })).body.role).toBe('admin');
    const reused = await daemon.request('POST', `/invitations/${res.body.token}/accept`, { token: dana.token });
    expect(reused.status).toBe(404);
    const log = await daemon.request('GET', '/orgs/acme/audit-log?kind=invitation.accepted', { token: owner.token });
    expect(log.body.items[0]).toMatchObject({ actor: { uid: dana.uid }, data: { email: 'dana@example.com', role: 'admin', invitedBy: owner.uid } });
  });

  it('only the account with the invited address can accept', async () => {
    const res = await daemon.request('POST', '/orgs/acme/invitations', { token: owner.token, body: { email: 'erin@example.com', role: 'user' } });
    const mallory = await daemon.register('mallory@example.com');
    const stolen = await daemon.request('POST', `/invitations/${res.body.token}/accept`, { token: mallory.token });
    expect(stolen.status).toBe(403);
    expect(stolen.body.error.code).toBe('FORBIDDEN');
    expect(stolen.body.error.message).toContain('e***@example.com');
    expect((await daemon.request('GET', '/orgs/acme', { token: mallory.token })).status).toBe(404);
    // Nor with a personal access token, nor signed out.
    expect((await daemon.request('POST', `/invitations/${res.body.token}/accept`)).status).toBe(401);
  });

  it('can be withdrawn, and a newer invitation to the same address replaces a pending one', async () => {
    const first = await daemon.request('POST', '/orgs/acme/invitations', { token: owner.token, body: { email: 'fay@example.com', role: 'user' } });
    const second = await daemon.request('POST', '/orgs/acme/invitations', { token: owner.token, body: { email: 'fay@example.com', role: 'viewer' } });
    const fay = await daemon.register('fay@example.com');
    expect((await daemon.request('POST', `/invitations/${first.body.token}/accept`, { token: fay.token })).status).toBe(404);
    expect((await daemon.request('DELETE', `/orgs/acme/invitations/${second.body.uid}`, { token: owner.token })).status).toBe(204);
    expect((await daemon.request('POST', `/invitations/${second.body.token}/accept`, { token: fay.token })).status).toBe(404);
    expect((await daemon.request('DELETE', '/orgs/acme/invitations/0000000000aaaaaaaaaaaaaaaa', { token: owner.token })).status).toBe(404);
  });

  it('refuses to invite an existing member (409 ALREADY_MEMBER) and lets only an owner invite an owner', async () => {
    const dup = await daemon.request('POST', '/orgs/acme/invitations', { token: owner.token, body: { email: 'OWNER@example.com', role: 'user' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.details.reason).toBe('ALREADY_MEMBER');
    const admin = await addMember(daemon, 'acme', owner.token, 'admin2@example.com', 'admin');
    const asOwner = await daemon.request('POST', '/orgs/acme/invitations', { token: admin.token, body: { email: 'boss@example.com', role: 'owner' } });
    expect(asOwner.status).toBe(403);
    expect((await daemon.request('POST', '/orgs/acme/invitations', { token: admin.token, body: { email: 'boss@example.com', role: 'user' } })).status).toBe(
      201,
    );
    const bad = await daemon.request('POST', '/orgs/acme/invitations', { token: admin.token, body: { email: 'nope', role: 'king' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['email', 'role']);
  });

  it('pages the invitation list with a cursor', async () => {
    const all: string[] = [];
    for (let cursor: string | null = null, guard = 0; guard < 20; guard++) {
      const page: { body: { items: { uid: string }[]; nextCursor: string | null } } = await daemon.request(
        'GET',
        `/orgs/acme/invitations?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: owner.token },
      );
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      all.push(...page.body.items.map((i) => i.uid));
      cursor = page.body.nextCursor;
      if (!cursor) break;
    }
    expect(all.length).toBeGreaterThan(4);
    expect([...all].sort().reverse()).toEqual(all);
    expect((await daemon.request('GET', '/orgs/acme/invitations?limit=0', { token: owner.token })).status).toBe(400);
    expect((await daemon.request('GET', '/orgs/acme/invitations?cursor=../x', { token: owner.token })).status).toBe(400);
  });
  // Last: moving the clock a week on also ends the sessions above.
  it('expires after 7 days', async () => {
    const res = await daemon.request('POST', '/orgs/acme/invitations', { token: owner.token, body: { email: 'slow@example.com', role: 'user' } });
    await daemon.register('slow@example.com');
    clock.advance(7 * 86400_000 + 1000);
    const slow = await daemon.login('slow@example.com', 'password-123');
    const late = await daemon.request('POST', `/invitations/${res.body.token}/accept`, { token: slow });
    expect(late.status).toBe(404);
    const list = await daemon.request('GET', '/orgs/acme/invitations', { token: await daemon.login('owner@example.com', 'password-123') });
    expect(list.body.items.find((i: { uid: string }) => i.uid === res.body.uid).status).toBe('expired');
  });
});

describe.each(DATABASE_KINDS)('invitations without SMTP [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
  });
  afterAll(() => daemon.stop());

  it('still returns the link to the admin', async () => {
    const admin = await daemon.adminToken();
    const res = await daemon.request('POST', '/orgs/default/invitations', { token: admin, body: { email: 'gus@example.com', role: 'viewer' } });
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^http:\/\/localhost:4000\/d\/invitations\/accept#token=/);
    const gus = await daemon.register('gus@example.com');
    expect((await daemon.request('POST', `/invitations/${res.body.token}/accept`, { token: gus.token })).body).toEqual({ org: 'default', role: 'viewer' });
  });
});
