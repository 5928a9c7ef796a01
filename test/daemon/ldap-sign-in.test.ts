import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeFilterValue, fillFilter } from '../../daemon/auth/ldap/ldap-filter.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import type { PrivateServer } from '../support/local-servers.js';
import { LDAP_ADMIN_DN, LDAP_SUFFIX, slapdAvailable, startPrivateSlapd } from '../support/slapd.js';

const SERVICE_PASSWORD = 'service-secret-7';
const PEOPLE = [
  { uid: 'alice', mail: 'alice@example.com', password: 'alice-directory-pw', name: 'Alice Liddell' },
  { uid: 'bob', mail: 'bob@example.com', password: 'bob-directory-pw', name: 'Bob Builder' },
  { uid: 'carol', mail: 'carol@example.com', password: 'carol-directory-pw', name: 'Carol Local' },
  { uid: 'dave', mail: 'dave@example.com', password: 'dave-directory-pw', name: 'Dave Unverified' },
  // A mail with a filter metacharacter, beside one the unescaped filter `(mail=star*@example.com)` would also match.
  { uid: 'star', mail: 'star*@example.com', password: 'star-directory-pw', name: 'Star' },
  { uid: 'starry', mail: 'starry@example.com', password: 'starry-directory-pw', name: 'Starry' },
];
const GROUPS = { ops: ['alice'], developers: ['alice', 'bob'], readers: ['bob'] };

const available = slapdAvailable();

describe('LDAP filter escaping', () => {
  it('escapes every filter metacharacter (RFC 4515)', () => {
    expect(escapeFilterValue('a*b(c)d\\e\0f')).toBe('a\\2ab\\28c\\29d\\5ce\\00f');
    expect(fillFilter('(&(objectClass=person)(mail={email}))', { email: '*)(uid=*' })).toBe('(&(objectClass=person)(mail=\\2a\\29\\28uid=\\2a))');
  });
});

describe.skipIf(!available.ok)('LDAP sign-in against a private slapd', () => {
  let slapd: PrivateServer & { url: string };
  beforeAll(async () => {
    slapd = await startPrivateSlapd(SERVICE_PASSWORD, PEOPLE, GROUPS);
  });
  afterAll(() => slapd?.stop());

  describe.each(DATABASE_KINDS)('[%s]', (kind) => {
    let daemon: TestDaemon;
    let adminToken: string;
    beforeAll(async () => {
      daemon = await startTestDaemon(kind, {
        env: {
          SVC_LDAP_URL: slapd.url,
          SVC_LDAP_BIND_DN: LDAP_ADMIN_DN,
          SVC_LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
          SVC_LDAP_USER_BASE: `ou=people,${LDAP_SUFFIX}`,
          SVC_LDAP_GROUP_BASE: `ou=groups,${LDAP_SUFFIX}`,
          SVC_LDAP_TIMEOUT: '3s',
        },
      });
      adminToken = await daemon.adminToken();
      expect((await daemon.request('POST', '/orgs', { token: adminToken, body: { slug: 'platform', name: 'Platform' } })).status).toBe(201);
      const mapDefault = await daemon.request('PUT', '/orgs/default/group-roles', {
        token: adminToken,
        body: { groupRoles: { ops: 'admin', developers: 'user' } },
      });
      expect(mapDefault.status).toBe(200);
      expect(mapDefault.body).toEqual({ groupRoles: { developers: 'user', ops: 'admin' } });
      expect((await daemon.request('PUT', '/orgs/platform/group-roles', { token: adminToken, body: { groupRoles: { readers: 'viewer' } } })).status).toBe(200);
    });
    afterAll(() => daemon?.stop());

    const roles = async (token: string) =>
      (await daemon.request('GET', '/auth/me', { token })).body.organizations.map((o: { slug: string; role: string }) => `${o.slug}:${o.role}`).sort();

    it('binds as the user: creates a verified account without a password, maps groups to roles and audits the sign-in', async () => {
      const login = await daemon.request('POST', '/auth/login', { body: { email: 'Alice@Example.com', password: 'alice-directory-pw' } });
      expect(login.status).toBe(200);
      const token = login.body.accessToken;
      const me = await daemon.request('GET', '/auth/me', { token });
      expect(me.body).toMatchObject({ email: 'alice@example.com', name: 'Alice Liddell', emailVerified: true, hasPassword: false });
      // ops → admin wins over developers → user; no mapped group in platform.
      expect(await roles(token)).toEqual(['default:admin']);
      const session = await daemon.deps.db.kysely.selectFrom('sessions').select('method').where('user_uid', '=', me.body.uid).executeTakeFirstOrThrow();
      expect(session.method).toBe('ldap');
      const audit = await daemon.request('GET', '/orgs/default/audit-log?kind=auth.signed_in', { token: adminToken });
      expect(
        audit.body.items.some((e: { data: { method: string }; target: { uid: string } }) => e.data.method === 'ldap' && e.target.uid === me.body.uid),
      ).toBe(true);
      const joined = await daemon.request('GET', '/orgs/default/audit-log?kind=member.joined', { token: adminToken });
      expect(joined.body.items.find((e: { target: { uid: string } }) => e.target.uid === me.body.uid).data).toMatchObject({ via: 'ldap', role: 'admin' });

      // The second sign-in finds the linked account.
      const again = await daemon.request('POST', '/auth/login', { body: { email: 'alice@example.com', password: 'alice-directory-pw' } });
      expect(again.status).toBe(200);
      expect(again.body.user.uid).toBe(me.body.uid);
    });

    it('maps groups per organization, never to owner, and changes the role of an existing member', async () => {
      const token = (await daemon.request('POST', '/auth/login', { body: { email: 'bob@example.com', password: 'bob-directory-pw' } })).body.accessToken;
      expect(await roles(token)).toEqual(['default:user', 'platform:viewer']);
      const owner = await daemon.request('PUT', '/orgs/default/group-roles', { token: adminToken, body: { groupRoles: { ops: 'owner' } } });
      expect(owner.status).toBe(400);
      expect(owner.body.error.code).toBe('VALIDATION_FAILED');
      expect((await daemon.request('PUT', '/orgs/platform/group-roles', { token: adminToken, body: { groupRoles: { readers: 'admin' } } })).status).toBe(200);
      const later = (await daemon.request('POST', '/auth/login', { body: { email: 'bob@example.com', password: 'bob-directory-pw' } })).body.accessToken;
      expect(await roles(later)).toEqual(['default:user', 'platform:admin']);
      const changed = await daemon.request('GET', '/orgs/platform/audit-log?kind=member.role_changed', { token: adminToken });
      expect(changed.body.items[0].data).toMatchObject({ from: 'viewer', to: 'admin', via: 'ldap' });
    });

    it('refuses a wrong password like a wrong local password, creating nothing and logging no password', async () => {
      const wrong = await daemon.request('POST', '/auth/login', { body: { email: 'starry@example.com', password: 'not-the-password' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'The e-mail address or the password is wrong.' });
      const unknown = await daemon.request('POST', '/auth/login', { body: { email: 'nobody@example.com', password: 'whatever-123' } });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.message).toBe(wrong.body.error.message);
      const created = await daemon.deps.db.kysely
        .selectFrom('users')
        .select('uid')
        .where('email', 'in', ['starry@example.com', 'nobody@example.com'])
        .execute();
      expect(created).toEqual([]);
      const logs = daemon.logs.join('\n');
      for (const secret of [SERVICE_PASSWORD, 'not-the-password', 'alice-directory-pw', 'bob-directory-pw']) expect(logs).not.toContain(secret);
    });

    it('escapes the address in the filter: a `*` matches only itself, and an injected filter finds no one', async () => {
      // Unescaped, (mail=star*@example.com) would match two entries and be refused.
      const star = await daemon.request('POST', '/auth/login', { body: { email: 'star*@example.com', password: 'star-directory-pw' } });
      expect(star.status).toBe(200);
      expect(star.body.user.email).toBe('star*@example.com');
      for (const email of ['*', 'alice*', '*)(mail=alice@example.com', 'alice@example.com)(|(mail=*', '*)(uid=alice))(|(uid=*']) {
        const injected = await daemon.request('POST', '/auth/login', { body: { email, password: 'alice-directory-pw' } });
        expect(injected.status, email).toBe(401);
      }
    });

    it('leaves an account with a local password to its password', async () => {
      await daemon.register('carol@example.com', 'carol-local-pw');
      expect((await daemon.request('POST', '/auth/login', { body: { email: 'carol@example.com', password: 'carol-directory-pw' } })).status).toBe(401);
      expect((await daemon.request('POST', '/auth/login', { body: { email: 'carol@example.com', password: 'carol-local-pw' } })).status).toBe(200);
    });

    it('never takes over an account whose address was never verified, and links a verified one', async () => {
      const db = daemon.deps.db.kysely;
      const dave = await daemon.register('dave@example.com', 'dave-local-pw');
      // An account without a password and an unverified address (as an organization's SAML provider creates).
      await db.updateTable('users').set({ password_hash: null, email_verified: 0 }).where('uid', '=', dave.uid).execute();
      const refused = await daemon.request('POST', '/auth/login', { body: { email: 'dave@example.com', password: 'dave-directory-pw' } });
      expect(refused.status).toBe(401);
      expect(await db.selectFrom('linked_identities').select('provider').where('user_uid', '=', dave.uid).execute()).toEqual([]);

      await db.updateTable('users').set({ email_verified: 1 }).where('uid', '=', dave.uid).execute();
      const linked = await daemon.request('POST', '/auth/login', { body: { email: 'dave@example.com', password: 'dave-directory-pw' } });
      expect(linked.status).toBe(200);
      expect(linked.body.user.uid).toBe(dave.uid);
      expect(await db.selectFrom('linked_identities').select('provider').where('user_uid', '=', dave.uid).execute()).toEqual([{ provider: 'ldap' }]);
    });

    it('signs in over StartTLS, trusting the directory certificate only through SVC_LDAP_CA_FILE', async () => {
      const env = {
        SVC_LDAP_URL: slapd.url,
        SVC_LDAP_STARTTLS: 'true',
        SVC_LDAP_BIND_DN: LDAP_ADMIN_DN,
        SVC_LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
        SVC_LDAP_USER_BASE: `ou=people,${LDAP_SUFFIX}`,
        SVC_LDAP_TIMEOUT: '3s',
      };
      const trusted = await startTestDaemon(kind, { env: { ...env, SVC_LDAP_CA_FILE: slapd.caFile } });
      const untrusted = await startTestDaemon(kind, { env });
      try {
        const ok = await trusted.request('POST', '/auth/login', { body: { email: 'bob@example.com', password: 'bob-directory-pw' } });
        expect(ok.status).toBe(200);
        // The self-signed certificate is not among the system's CAs: no password is sent.
        const refused = await untrusted.request('POST', '/auth/login', { body: { email: 'bob@example.com', password: 'bob-directory-pw' } });
        expect(refused.status).toBe(503);
      } finally {
        await Promise.all([trusted.stop(), untrusted.stop()]);
      }
    });

    it('answers 503 when the directory cannot be reached, without details', async () => {
      const down = await startTestDaemon(kind, {
        env: { SVC_LDAP_URL: 'ldap://127.0.0.1:1', SVC_LDAP_USER_BASE: `ou=people,${LDAP_SUFFIX}`, SVC_LDAP_TIMEOUT: '2s' },
      });
      try {
        const res = await down.request('POST', '/auth/login', { body: { email: 'alice@example.com', password: 'alice-directory-pw' } });
        expect(res.status).toBe(503);
        expect(res.body.error).toEqual({ code: 'UNAVAILABLE', message: 'The sign-in directory cannot be reached; try again later.' });
        expect(down.logs.join('\n')).not.toContain('alice-directory-pw');
      } finally {
        await down.stop();
      }
    });
  });
});
