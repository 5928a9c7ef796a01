import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';
import { addMember, createOrg } from './helpers.js';
import { linkToken, waitForMail } from './mail.js';

describe.each(DATABASE_KINDS)('membership requests [%s]', (kind) => {
  let daemon: TestDaemon;
  let owner: { token: string; uid: string };
  let admin: { token: string; uid: string };
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    owner = await daemon.register('owner@example.com');
    await createOrg(daemon, owner.token, 'acme');
    admin = await addMember(daemon, 'acme', owner.token, 'admin@example.com', 'admin');
  });
  afterAll(() => daemon.stop());

  const ask = (token: string, org: string, message?: string) => daemon.request('POST', '/membership-requests', { token, body: { org, message } });
  const pending = async () =>
    (await daemon.request('GET', '/orgs/acme/membership-requests', { token: admin.token })).body.items as { uid: string; user: { email: string } }[];

  it('answers the same whether or not the organization exists', async () => {
    const ivy = await daemon.register('ivy@example.com');
    const real = await ask(ivy.token, 'acme', 'I run the on-call rota');
    const fake = await ask(ivy.token, 'no-such-org');
    expect(real.status).toBe(202);
    expect(fake.status).toBe(202);
    expect(Object.keys(real.body)).toEqual(Object.keys(fake.body));
    expect(real.body.status).toBe(fake.body.status);
    const items = await pending();
    expect(items).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ email: 'ivy@example.com' }),
        message: 'I run the on-call rota',
        status: 'pending',
        via: 'request',
      }),
    ]);
  });

  it('keeps one pending request per person', async () => {
    const jo = await daemon.register('jo@example.com');
    await ask(jo.token, 'acme');
    await ask(jo.token, 'acme');
    expect((await pending()).filter((r) => r.user.email === 'jo@example.com')).toHaveLength(1);
  });

  it('approval admits the requester as user (or the role given); a request is decided once', async () => {
    const kim = await daemon.register('kim@example.com');
    await ask(kim.token, 'acme');
    const request = (await pending()).find((r) => r.user.email === 'kim@example.com')!;
    const approved = await daemon.request('POST', `/orgs/acme/membership-requests/${request.uid}/approve`, { token: admin.token, body: {} });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', userUid: kim.uid, role: 'user' });
    expect((await daemon.request('GET', '/orgs/acme', { token: kim.token })).body.role).toBe('user');
    const twice = await daemon.request('POST', `/orgs/acme/membership-requests/${request.uid}/reject`, { token: admin.token });
    expect(twice.status).toBe(409);
    expect(twice.body.error.details.reason).toBe('ALREADY_DECIDED');
    expect((await pending()).some((r) => r.uid === request.uid)).toBe(false);
    const all = await daemon.request('GET', '/orgs/acme/membership-requests?status=approved', { token: admin.token });
    expect(all.body.items.map((r: { uid: string }) => r.uid)).toContain(request.uid);
  });

  it('rejection leaves the requester out; only an owner may approve as owner', async () => {
    const lee = await daemon.register('lee@example.com');
    await ask(lee.token, 'acme');
    const request = (await pending()).find((r) => r.user.email === 'lee@example.com')!;
    expect(
      (await daemon.request('POST', `/orgs/acme/membership-requests/${request.uid}/approve`, { token: admin.token, body: { role: 'owner' } })).status,
    ).toBe(403);
    const rejected = await daemon.request('POST', `/orgs/acme/membership-requests/${request.uid}/reject`, { token: admin.token });
    expect(rejected.body).toMatchObject({ status: 'rejected', userUid: lee.uid });
    expect((await daemon.request('GET', '/orgs/acme', { token: lee.token })).status).toBe(404);
    const log = await daemon.request('GET', '/orgs/acme/audit-log?kind=membership_request.rejected', { token: admin.token });
    expect(log.body.items[0]).toMatchObject({ actor: { uid: admin.uid }, target: { uid: lee.uid } });
  });

  it('approval beyond the member limit is refused and the request stays pending', async () => {
    const max = await daemon.register('max@example.com');
    await ask(max.token, 'acme');
    const request = (await pending()).find((r) => r.user.email === 'max@example.com')!;
    const count = (await daemon.request('GET', '/orgs/acme', { token: owner.token })).body.memberCount;
    await daemon.request('PATCH', '/orgs/acme', { token: owner.token, body: { memberLimit: count } });
    const refused = await daemon.request('POST', `/orgs/acme/membership-requests/${request.uid}/approve`, { token: admin.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.reason).toBe('MEMBER_LIMIT_REACHED');
    expect((await pending()).some((r) => r.uid === request.uid)).toBe(true);
    await daemon.request('PATCH', '/orgs/acme', { token: owner.token, body: { memberLimit: null } });
  });

  it('is refused to users and viewers of the organization', async () => {
    const user = await addMember(daemon, 'acme', owner.token, 'plain@example.com', 'user');
    expect((await daemon.request('GET', '/orgs/acme/membership-requests', { token: user.token })).status).toBe(403);
    expect((await daemon.request('GET', '/orgs/acme/membership-requests?status=maybe', { token: admin.token })).status).toBe(400);
    expect((await daemon.request('POST', '/orgs/acme/membership-requests/0000000000aaaaaaaaaaaaaaaa/approve', { token: admin.token, body: {} })).status).toBe(
      404,
    );
  });
});

describe.each(DATABASE_KINDS)('registration.email_pattern [%s]', (kind) => {
  let daemon: TestDaemon;
  let owner: { token: string; uid: string };
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    owner = await daemon.register('founder@pattern.test');
    await createOrg(daemon, owner.token, 'pattern-co');
    await createOrg(daemon, owner.token, 'other-co');
    await daemon.request('PATCH', '/orgs/pattern-co', { token: owner.token, body: { registrationEmailPattern: '@pattern\\.test$' } });
  });
  afterAll(() => daemon.stop());

  const orgsOf = async (token: string) =>
    ((await daemon.request('GET', '/auth/me', { token })).body.organizations as { slug: string; role: string }[]).map((o) => `${o.slug}:${o.role}`);

  it('a signed-up user whose address matches joins as user; others do not', async () => {
    const match = await daemon.register('New.Person@PATTERN.test');
    expect(await orgsOf(match.token)).toEqual(['pattern-co:user']);
    const other = await daemon.register('someone@elsewhere.test');
    expect(await orgsOf(other.token)).toEqual([]);
    const log = await daemon.request('GET', '/orgs/pattern-co/audit-log?kind=member.joined', { token: owner.token });
    expect(log.body.items[0]).toMatchObject({ target: { uid: match.uid }, data: { via: 'email_pattern', role: 'user' } });
  });

  it('at the member limit, files a membership request instead', async () => {
    const count = (await daemon.request('GET', '/orgs/pattern-co', { token: owner.token })).body.memberCount;
    await daemon.request('PATCH', '/orgs/pattern-co', { token: owner.token, body: { memberLimit: count } });
    const late = await daemon.register('late@pattern.test');
    expect(await orgsOf(late.token)).toEqual([]);
    const requests = await daemon.request('GET', '/orgs/pattern-co/membership-requests', { token: owner.token });
    expect(requests.body.items).toEqual([expect.objectContaining({ user: expect.objectContaining({ uid: late.uid }), via: 'email_pattern' })]);
    await daemon.request('PATCH', '/orgs/pattern-co', { token: owner.token, body: { memberLimit: null } });
  });

  it('ignores, with a warning, a stored pattern that is not a string or takes too long', async () => {
    const other = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'other-co').executeTakeFirstOrThrow();
    await daemon.deps.db.kysely
      .insertInto('parameters')
      .values({
        uid: 'p-slow',
        organization_uid: other.uid,
        key: 'registration.email_pattern',
        value: JSON.stringify({ value: '^(a+)+$' }),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const started = Date.now();
    const res = await daemon.request('POST', '/auth/register', { body: { email: `${'a'.repeat(40)}@pattern.test`, password: 'password-123' } });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.body.user.organizations.map((o: { slug: string }) => o.slug)).toEqual(['pattern-co']);
    await daemon.deps.db.kysely.updateTable('parameters').set({ value: '{"value": 42}' }).where('uid', '=', 'p-slow').execute();
    expect((await daemon.request('POST', '/auth/register', { body: { email: 'b@pattern.test', password: 'password-123' } })).status).toBe(201);
    expect(daemon.logs.some((line) => line.includes('other-co') && line.includes('registration.email_pattern'))).toBe(true);
  });
});

describe.each(DATABASE_KINDS)('registration.email_pattern with mail [%s]', (kind) => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { env: { SVC_SMTP_URL: smtp.url } });
    const owner = await daemon.register('founder@verified.test');
    await createOrg(daemon, owner.token, 'verified-co');
    await daemon.request('PATCH', '/orgs/verified-co', { token: owner.token, body: { registrationEmailPattern: '@verified\\.test$' } });
  });
  afterAll(async () => {
    await daemon.stop();
    await smtp.close();
  });

  it('waits for the address to be verified before joining', async () => {
    const res = await daemon.request('POST', '/auth/register', { body: { email: 'claim@verified.test', password: 'password-123' } });
    expect(res.status).toBe(201);
    expect(res.body.user.organizations).toEqual([]);
    const token = linkToken(await waitForMail(smtp, 'claim@verified.test', 'Confirm your e-mail address'));
    expect((await daemon.request('POST', '/auth/verify-email', { body: { token } })).status).toBe(200);
    const session = await daemon.login('claim@verified.test', 'password-123');
    const me = await daemon.request('GET', '/auth/me', { token: session });
    expect(me.body).toMatchObject({ emailVerified: true, organizations: [{ slug: 'verified-co', role: 'user' }] });
  });
});
