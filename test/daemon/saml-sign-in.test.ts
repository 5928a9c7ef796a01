import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { TestIdentityProvider, type AssertionInput } from '../support/saml/identity-provider.js';

describe.each(DATABASE_KINDS)('SAML sign-in against an xml-crypto identity provider started by the test [%s]', (kind) => {
  let daemon: TestDaemon;
  let idp: TestIdentityProvider;
  let adminToken: string;
  beforeAll(async () => {
    [daemon, idp] = await Promise.all([startTestDaemon(kind), TestIdentityProvider.start()]);
    adminToken = await daemon.adminToken();
    expect((await daemon.request('POST', '/orgs', { token: adminToken, body: { slug: 'acme', name: 'Acme' } })).status).toBe(201);
  });
  afterAll(async () => {
    await daemon?.stop();
    await idp?.stop();
  });

  /** Starts a sign-in at svc and follows its redirect to the identity provider. */
  async function startLogin(returnTo = '/checks'): Promise<void> {
    const res = await fetch(`${daemon.url}/api/v1/auth/saml/acme/login?returnTo=${encodeURIComponent(returnTo)}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${idp.url}/sso?SAMLRequest=`)).toBe(true);
    expect((await fetch(location)).status).toBe(200);
  }

  /** Posts a SAMLResponse to the ACS as the browser would; returns the hand-off page it lands on. */
  async function post(samlResponse: string): Promise<URL> {
    const res = await fetch(`${daemon.url}/api/v1/auth/saml/acme/acs`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    });
    expect(res.status).toBe(302);
    const landed = new URL(res.headers.get('location')!);
    expect(landed.pathname).toBe('/d/auth/complete');
    return landed;
  }

  async function exchange(landed: URL) {
    const code = landed.searchParams.get('code');
    expect(code, `landed with ${landed.search}`).toBeTruthy();
    const res = await daemon.request('POST', '/auth/handoff/exchange', { body: { code } });
    expect(res.status).toBe(200);
    return res.body as { accessToken: string; returnTo: string };
  }

  async function refused(input: AssertionInput | string): Promise<string | null> {
    await startLogin();
    const landed = await post(typeof input === 'string' ? input : idp.response(input));
    expect(landed.searchParams.get('code')).toBeNull();
    return landed.searchParams.get('error');
  }

  it('stores the identity provider from its metadata (admins), refuses broken metadata and publishes SP metadata', async () => {
    expect((await daemon.request('GET', '/orgs/acme/saml', { token: adminToken })).status).toBe(404);
    // The SP metadata is there before the identity provider: the admin enters it there first.
    const early = await fetch(`${daemon.url}/api/v1/auth/saml/acme/metadata`);
    expect(early.status).toBe(200);
    expect(await early.text()).toContain('WantAssertionsSigned="true"');
    const broken = await daemon.request('PUT', '/orgs/acme/saml', {
      token: adminToken,
      body: { metadataXml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('VALIDATION_FAILED');
    const both = await daemon.request('PUT', '/orgs/acme/saml', {
      token: adminToken,
      body: { metadataXml: idp.metadata(), metadataUrl: 'https://idp.example/metadata' },
    });
    expect(both.status).toBe(400);

    const stored = await daemon.request('PUT', '/orgs/acme/saml', { token: adminToken, body: { metadataXml: idp.metadata() } });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      idpEntityId: idp.entityId,
      idpSsoUrl: `${idp.url}/sso`,
      required: false,
      serviceProvider: { entityId: 'http://localhost:4000/api/v1/auth/saml/acme/metadata', acsUrl: 'http://localhost:4000/api/v1/auth/saml/acme/acs' },
    });
    expect(stored.body.certificateFingerprints).toHaveLength(1);
    expect((await daemon.request('GET', '/orgs/acme/saml', { token: adminToken })).body.idpEntityId).toBe(idp.entityId);

    const metadata = await fetch(`${daemon.url}/api/v1/auth/saml/acme/metadata`);
    expect(metadata.status).toBe(200);
    const xml = await metadata.text();
    expect(xml).toContain('entityID="http://localhost:4000/api/v1/auth/saml/acme/metadata"');
    expect(xml).toContain('Location="http://localhost:4000/api/v1/auth/saml/acme/acs"');
    expect((await fetch(`${daemon.url}/api/v1/auth/saml/nowhere/metadata`)).status).toBe(404);

    const mapped = await daemon.request('PUT', '/orgs/acme/group-roles', { token: adminToken, body: { groupRoles: { sre: 'admin', staff: 'user' } } });
    expect(mapped.status).toBe(200);
  });

  it('signs in: a signed assertion creates the account, maps its groups just in time and ends through the hand-off code', async () => {
    await startLogin('/checks?x=1');
    const landed = await post(idp.response({ nameId: 'alice-123', email: 'Alice@Acme.test', name: 'Alice A', groups: ['staff', 'sre'] }));
    const session = await exchange(landed);
    expect(session.returnTo).toBe('/checks?x=1');
    const me = await daemon.request('GET', '/auth/me', { token: session.accessToken });
    // The organization's provider vouches for the address to that organization only: not verified.
    expect(me.body).toMatchObject({ email: 'alice@acme.test', name: 'Alice A', emailVerified: false, hasPassword: false });
    expect(me.body.organizations).toEqual([{ slug: 'acme', name: 'Acme', role: 'admin' }]);
    const audit = await daemon.request('GET', '/orgs/acme/audit-log?kind=auth.signed_in', { token: adminToken });
    expect(audit.body.items[0]).toMatchObject({ data: { method: 'saml', organization: 'acme' }, target: { uid: me.body.uid } });
    const joined = await daemon.request('GET', '/orgs/acme/audit-log?kind=member.joined', { token: adminToken });
    expect(joined.body.items[0].data).toMatchObject({ via: 'saml', role: 'admin' });

    // Signed response instead of signed assertion; the same subject finds the same account.
    await startLogin();
    const again = await exchange(await post(idp.response({ nameId: 'alice-123', email: 'alice@acme.test', sign: 'response' })));
    expect((await daemon.request('GET', '/auth/me', { token: again.accessToken })).body.uid).toBe(me.body.uid);

    // Nobody mapped: a viewer.
    await startLogin();
    const bob = await exchange(await post(idp.response({ nameId: 'bob-456', email: 'bob@acme.test', groups: ['unmapped'] })));
    expect((await daemon.request('GET', '/auth/me', { token: bob.accessToken })).body.organizations).toEqual([{ slug: 'acme', name: 'Acme', role: 'viewer' }]);
  });

  it('refuses an unsigned response', async () => {
    expect(await refused({ nameId: 'mallory', email: 'mallory@acme.test', sign: 'none' })).toBe('saml_refused');
  });

  it('refuses a wrong audience, another recipient, another issuer and another destination', async () => {
    expect(await refused({ nameId: 'mallory', email: 'mallory@acme.test', audience: 'https://other-sp.example/metadata' })).toBe('saml_refused');
    expect(await refused({ nameId: 'mallory', email: 'mallory@acme.test', recipient: 'https://other-sp.example/acs' })).toBe('saml_refused');
    expect(await refused({ nameId: 'mallory', email: 'mallory@acme.test', issuer: 'https://other-idp.example' })).toBe('saml_refused');
    // A signed assertion for this ACS inside a Response addressed to another service provider.
    await startLogin();
    const signed = idp.sign(idp.assertionXml({ nameId: 'mallory', email: 'mallory@acme.test' }, '_elsewhere'), '_elsewhere');
    const elsewhere = idp.responseXml(signed, { recipient: 'https://other-sp.example/acs' });
    expect((await post(Buffer.from(elsewhere).toString('base64'))).searchParams.get('error')).toBe('saml_refused');
  });

  it('refuses an expired assertion (past the clock skew)', async () => {
    expect(await refused({ nameId: 'mallory', email: 'mallory@acme.test', notOnOrAfterSeconds: -120 })).toBe('saml_refused');
  });

  it('refuses a response to a request it never sent, and SHA-1 signatures', async () => {
    expect(await refused({ nameId: 'mallory', email: 'mallory@acme.test', inResponseTo: '_never-sent' })).toBe('saml_refused');
    expect(await refused({ nameId: 'mallory', email: 'mallory@acme.test', weakAlgorithm: true })).toBe('saml_refused');
  });

  it('refuses a replayed response, and a replayed assertion under a new request', async () => {
    await startLogin();
    const response = idp.response({ nameId: 'carol-789', email: 'carol@acme.test' });
    await exchange(await post(response));
    expect((await post(response)).searchParams.get('error')).toBe('saml_refused');

    // The same signed assertion, re-wrapped in an (unsigned) response to a fresh request.
    const assertionId = '_replayed-assertion';
    await startLogin();
    // Without InResponseTo in the signed part, only the record of used assertions stops the replay.
    const signed = idp.sign(idp.assertionXml({ nameId: 'carol-789', email: 'carol@acme.test', omitSubjectInResponseTo: true }, assertionId), assertionId);
    await exchange(await post(Buffer.from(idp.responseXml(signed)).toString('base64')));
    const firstRequest = idp.requests.at(-1)!.id;
    await startLogin();
    const rewrapped = Buffer.from(idp.responseXml(signed, { inResponseTo: idp.requests.at(-1)!.id })).toString('base64');
    expect(firstRequest).not.toBe(idp.requests.at(-1)!.id);
    expect((await post(rewrapped)).searchParams.get('error')).toBe('saml_refused');
  });

  it('refuses wrapped signatures (XML signature wrapping)', async () => {
    const created = async () => (await daemon.deps.db.kysely.selectFrom('users').select('uid').where('email', '=', 'mallory@acme.test').execute()).length;
    // 1. The genuine signed assertion hidden in Extensions, an evil assertion with its ID and signature in its place.
    await startLogin();
    const id = '_genuine';
    const genuine = idp.sign(idp.assertionXml({ nameId: 'alice-123', email: 'alice@acme.test' }, id), id);
    const signature = /<(?:ds:)?Signature[\s\S]*<\/(?:ds:)?Signature>/.exec(genuine)![0];
    const evil = idp.assertionXml({ nameId: 'mallory', email: 'mallory@acme.test', groups: ['sre'] }, id).replace(/(<\/saml:Issuer>)/, `$1${signature}`);
    const wrapped = idp.responseXml(evil).replace('<samlp:Status>', `<samlp:Extensions>${genuine}</samlp:Extensions><samlp:Status>`);
    expect(await refused(Buffer.from(wrapped).toString('base64'))).toBe('saml_refused');
    // 2. The evil assertion beside the genuine one.
    await startLogin();
    const genuine2 = idp.sign(idp.assertionXml({ nameId: 'alice-123', email: 'alice@acme.test' }, '_genuine2'), '_genuine2');
    const beside = idp.responseXml(`${idp.assertionXml({ nameId: 'mallory', email: 'mallory@acme.test' }, '_evil2')}${genuine2}`);
    expect(await refused(Buffer.from(beside).toString('base64'))).toBe('saml_refused');
    // 3. The evil assertion with the genuine one nested inside it.
    await startLogin();
    const genuine3 = idp.sign(idp.assertionXml({ nameId: 'alice-123', email: 'alice@acme.test' }, '_genuine3'), '_genuine3');
    const nested = idp.responseXml(
      idp
        .assertionXml({ nameId: 'mallory', email: 'mallory@acme.test' }, '_evil3')
        .replace('</saml:Assertion>', `<saml:Advice>${genuine3}</saml:Advice></saml:Assertion>`),
    );
    expect(await refused(Buffer.from(nested).toString('base64'))).toBe('saml_refused');
    expect(await created()).toBe(0);
  });

  it('never links an existing account through the organization provider', async () => {
    await daemon.register('dora@acme.test', 'dora-local-pw');
    expect(await refused({ nameId: 'dora-1', email: 'dora@acme.test' })).toBe('account_exists');
  });

  it('"SAML required" refuses password sign-in of members, except the break-glass super admin', async () => {
    const member = await daemon.register('erin@acme.test', 'erin-local-pw');
    await daemon.deps.db.kysely
      .insertInto('members')
      .values({
        organization_uid: (await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'acme').executeTakeFirstOrThrow()).uid,
        user_uid: member.uid,
        role: 'user',
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: adminToken, body: { metadataXml: idp.metadata(), required: true } })).body.required).toBe(
      true,
    );
    const refusedLogin = await daemon.request('POST', '/auth/login', { body: { email: 'erin@acme.test', password: 'erin-local-pw' } });
    expect(refusedLogin.status).toBe(403);
    expect(refusedLogin.body.error.message).toContain('/api/v1/auth/saml/acme/login');
    // A wrong password still answers as a wrong password.
    expect((await daemon.request('POST', '/auth/login', { body: { email: 'erin@acme.test', password: 'wrong-password' } })).status).toBe(401);
    // The super admin (owner of acme) keeps the password.
    expect((await daemon.request('POST', '/auth/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).status).toBe(200);

    expect((await daemon.request('DELETE', '/orgs/acme/saml', { token: adminToken })).status).toBe(204);
    expect((await daemon.request('POST', '/auth/login', { body: { email: 'erin@acme.test', password: 'erin-local-pw' } })).status).toBe(200);
    expect((await fetch(`${daemon.url}/api/v1/auth/saml/acme/login`, { redirect: 'manual' })).status).toBe(404);
    const changes = await daemon.request('GET', '/orgs/acme/audit-log?kind=organization.saml_changed', { token: adminToken });
    expect(changes.body.items.map((e: { data: Record<string, unknown> }) => e.data.removed ?? e.data.required)).toEqual([true, true, false]);
  });

  it('lets only admins configure SAML and the group mapping', async () => {
    const viewer = await daemon.register('vic@acme.test');
    const org = await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'acme').executeTakeFirstOrThrow();
    await daemon.deps.db.kysely
      .insertInto('members')
      .values({ organization_uid: org.uid, user_uid: viewer.uid, role: 'user', created_at: new Date().toISOString() })
      .execute();
    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: viewer.token, body: { metadataXml: idp.metadata() } })).status).toBe(403);
    expect((await daemon.request('PUT', '/orgs/acme/group-roles', { token: viewer.token, body: { groupRoles: { x: 'admin' } } })).status).toBe(403);
  });

  /** A password account made a member of acme (and of `also`) with `role`, its address verified or not. */
  async function acmeMember(email: string, role: 'owner' | 'admin' | 'user', options: { verified?: boolean; also?: string } = {}) {
    const account = await daemon.register(email, `${email}-pw`);
    const db = daemon.deps.db.kysely;
    for (const slug of ['acme', ...(options.also ? [options.also] : [])]) {
      const org = await db.selectFrom('organizations').select('uid').where('slug', '=', slug).executeTakeFirstOrThrow();
      await db.insertInto('members').values({ organization_uid: org.uid, user_uid: account.uid, role, created_at: new Date().toISOString() }).execute();
    }
    if (options.verified) await db.updateTable('users').set({ email_verified: 1 }).where('uid', '=', account.uid).execute();
    return { ...account, login: () => daemon.request('POST', '/auth/login', { body: { email, password: `${email}-pw` } }) };
  }

  it('lets only an owner require SAML, and owners keep their password sign-in while it is required', async () => {
    const owner = await acmeMember('owen@acme.test', 'owner', { verified: true });
    const admin = await acmeMember('adam@acme.test', 'admin', { verified: true });
    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: owner.token, body: { metadataXml: idp.metadata() } })).status).toBe(200);

    const byAdmin = await daemon.request('PUT', '/orgs/acme/saml', { token: admin.token, body: { metadataXml: idp.metadata(), required: true } });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.code).toBe('FORBIDDEN');
    expect((await daemon.request('GET', '/orgs/acme/saml', { token: admin.token })).body.required).toBe(false);
    expect((await owner.login()).status).toBe(200);

    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: owner.token, body: { metadataXml: idp.metadata(), required: true } })).body.required).toBe(
      true,
    );
    // The admin may still replace the provider's metadata: "required" stays as the owner set it, and only the owner turns it off.
    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: admin.token, body: { metadataXml: idp.metadata() } })).body.required).toBe(true);
    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: admin.token, body: { metadataXml: idp.metadata(), required: false } })).status).toBe(403);
    expect((await daemon.request('DELETE', '/orgs/acme/saml', { token: admin.token })).status).toBe(403);
    expect((await admin.login()).status).toBe(403);
    const ownerLogin = await owner.login();
    expect(ownerLogin.status, JSON.stringify(ownerLogin.body)).toBe(200);
    // An owner's SAML sign-in does not take over the owner's account: the owner keeps the password.
    expect(await refused({ nameId: 'owen-1', email: 'owen@acme.test' })).toBe('account_exists');

    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: owner.token, body: { metadataXml: idp.metadata(), required: false } })).body.required).toBe(
      false,
    );
    expect((await admin.login()).status).toBe(200);
  });

  it('links the existing verified account of a member of this organization alone on a verified SAML sign-in', async () => {
    const frank = await acmeMember('frank@acme.test', 'user', { verified: true });
    expect((await daemon.request('PUT', '/orgs/acme/saml', { token: adminToken, body: { metadataXml: idp.metadata(), required: true } })).status).toBe(200);
    expect((await frank.login()).status).toBe(403);
    await startLogin();
    const session = await exchange(await post(idp.response({ nameId: 'frank-77', email: 'Frank@acme.test', groups: ['unmapped'] })));
    const me = await daemon.request('GET', '/auth/me', { token: session.accessToken });
    expect(me.body).toMatchObject({ uid: frank.uid, email: 'frank@acme.test', hasPassword: true });
    expect(me.body.organizations).toEqual([{ slug: 'acme', name: 'Acme', role: 'user' }]);
    // Linked: the same subject finds the same account again.
    await startLogin();
    expect(
      (
        await daemon.request('GET', '/auth/me', {
          token: (await exchange(await post(idp.response({ nameId: 'frank-77', email: 'frank@acme.test' })))).accessToken,
        })
      ).body.uid,
    ).toBe(frank.uid);

    // Never an account whose address is unverified, or that the organization's provider does not speak for alone.
    await acmeMember('gwen@acme.test', 'user');
    expect(await refused({ nameId: 'gwen-1', email: 'gwen@acme.test' })).toBe('account_exists');
    await acmeMember('hugo@acme.test', 'user', { verified: true, also: 'default' });
    expect(await refused({ nameId: 'hugo-1', email: 'hugo@acme.test' })).toBe('account_exists');
    expect(await refused({ nameId: 'root-1', email: 'admin@svc.local' })).toBe('account_exists');
    expect((await daemon.request('DELETE', '/orgs/acme/saml', { token: adminToken })).status).toBe(204);
  });
});
