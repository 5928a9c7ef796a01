import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeParameter } from '../../daemon/parameters.js';
import { newId } from '../../daemon/db/ids.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { freePort, TestBrowser } from '../support/oauth/browser.js';
import { startFakeProvider, type FakeProvider } from '../support/oauth/fake-providers.js';
import { startOidcServer, type OidcServer } from '../support/oauth/oidc-server.js';
import { signInAndExchange } from '../support/oauth/sign-in.js';

const TEAM_CLAIM = 'https://slack.com/team_id';
const GUEST_CLAIM = 'https://slack.com/is_guest';

describe.each(DATABASE_KINDS)('team-chat workspace auto-join [%s]', (kind) => {
  let daemon: TestDaemon;
  let chat: OidcServer;
  let install: FakeProvider;
  let base: string;
  let people = 0;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const client = { clientId: 'chat-app', clientSecret: 'chat-app-secret' };
    chat = await startOidcServer({
      ...client,
      redirectUris: [`${base}/api/v1/auth/team_chat/callback`],
      extraClaims: [TEAM_CLAIM, GUEST_CLAIM],
      claimsInIdToken: true,
    });
    install = await startFakeProvider('team_chat_install', client);
    daemon = await startTestDaemon(kind, { env: { SVC_LISTEN: `127.0.0.1:${port}`, SVC_BASE_URL: base, ...chat.env('team_chat'), ...install.env() } });
  });
  afterAll(async () => {
    await daemon?.stop();
    await chat?.close();
    await install?.close();
  });

  const db = () => daemon.deps.db.kysely;

  /** An organization linked to a workspace (as an earlier install left it), optionally with an owner. */
  async function linkedOrg(slug: string, workspaceId: string, options: { withOwner?: boolean; memberLimit?: number } = {}) {
    const uid = newId();
    const now = new Date().toISOString();
    await db()
      .insertInto('organizations')
      .values({ uid, slug, name: slug, member_limit: options.memberLimit ?? null, created_at: now })
      .execute();
    await db()
      .insertInto('workspace_links')
      .values({
        organization_uid: uid,
        provider: 'team_chat',
        workspace_id: workspaceId,
        workspace_name: slug,
        linked_by: null,
        created_at: now,
        removed_at: null,
      })
      .execute();
    if (options.withOwner) {
      const owner = await daemon.register(`owner-${slug}@example.com`);
      await db().insertInto('members').values({ organization_uid: uid, user_uid: owner.uid, role: 'owner', created_at: now }).execute();
      return { uid, ownerToken: owner.token };
    }
    return { uid, ownerToken: undefined };
  }

  /** A team-chat sign-in of a workspace member, all the way to an authenticated call. */
  async function chatSignIn(workspaceId: string, options: { guest?: boolean; email?: string; returnTo?: string } = {}) {
    people += 1;
    const email = options.email ?? `person${people}-${kind}@example.com`;
    chat.next.account = {
      sub: `U${people}`,
      [TEAM_CLAIM]: workspaceId,
      [GUEST_CLAIM]: options.guest ?? false,
      email,
      email_verified: true,
      name: `Person ${people}`,
    };
    const { exchange } = await signInAndExchange(daemon, 'team_chat', { returnTo: options.returnTo });
    expect(exchange.status).toBe(200);
    const me = await daemon.request('GET', '/auth/me', { token: exchange.body.accessToken });
    expect(me.status).toBe(200);
    return { token: exchange.body.accessToken as string, me: me.body, email };
  }

  const roleIn = (me: { organizations: { slug: string; role: string }[] }, slug: string) => me.organizations.find((o) => o.slug === slug)?.role;
  const pendingRequests = (orgUid: string) =>
    db().selectFrom('membership_requests').select(['user_uid', 'via']).where('organization_uid', '=', orgUid).where('status', '=', 'pending').execute();

  it('a workspace member joins the linked organization as user and lands without approval', async () => {
    await linkedOrg('acme', 'TACME', { withOwner: true });
    const { me } = await chatSignIn('TACME', { returnTo: '/orgs/acme/checks' });
    expect(roleIn(me, 'acme')).toBe('user');
  });

  it('single- and multi-channel guests are admitted too', async () => {
    await linkedOrg('guests', 'TGUEST', { withOwner: true });
    const { me } = await chatSignIn('TGUEST', { guest: true });
    expect(roleIn(me, 'guests')).toBe('user');
  });

  it('the first person in an empty linked organization becomes its admin, the next a user', async () => {
    await linkedOrg('empty-one', 'TEMPTY');
    expect(roleIn((await chatSignIn('TEMPTY')).me, 'empty-one')).toBe('admin');
    expect(roleIn((await chatSignIn('TEMPTY')).me, 'empty-one')).toBe('user');
  });

  it('an organization at its member limit falls back to a membership request', async () => {
    const org = await linkedOrg('full', 'TFULL', { withOwner: true, memberLimit: 1 });
    const { me } = await chatSignIn('TFULL');
    expect(roleIn(me, 'full')).toBeUndefined();
    expect(await pendingRequests(org.uid)).toEqual([{ user_uid: me.uid, via: 'team_chat' }]);
  });

  it('a removed link no longer admits anyone', async () => {
    const org = await linkedOrg('unlinked', 'TGONE', { withOwner: true });
    const removed = await daemon.request('DELETE', '/orgs/unlinked/team-chat-workspace', { token: org.ownerToken });
    expect(removed.status).toBe(204);
    expect((await daemon.request('GET', '/orgs/unlinked/team-chat-workspace', { token: org.ownerToken })).body).toEqual({ linked: false });
    const { me } = await chatSignIn('TGONE');
    expect(roleIn(me, 'unlinked')).toBeUndefined();
    expect(await pendingRequests(org.uid)).toEqual([]);
  });

  it('auto-join false: the membership-request flow applies, and the parameter is read on every sign-in', async () => {
    const org = await linkedOrg('closed', 'TCLOSED', { withOwner: true });
    await writeParameter(daemon.deps, org.uid, 'registration.slack_workspace_auto_join', false);
    const first = await chatSignIn('TCLOSED');
    expect(roleIn(first.me, 'closed')).toBeUndefined();
    expect(await pendingRequests(org.uid)).toEqual([{ user_uid: first.me.uid, via: 'team_chat' }]);
    // Turned back on without a restart: the next sign-in joins.
    await writeParameter(daemon.deps, org.uid, 'registration.slack_workspace_auto_join', true);
    expect(roleIn((await chatSignIn('TCLOSED')).me, 'closed')).toBe('user');
  });

  it('auto-join false with a matching registration.email_pattern: admitted by the pattern', async () => {
    const org = await linkedOrg('patterned', 'TPATTERN', { withOwner: true });
    await writeParameter(daemon.deps, org.uid, 'registration.slack_workspace_auto_join', false);
    await writeParameter(daemon.deps, org.uid, 'registration.email_pattern', '@patterned\\.example$');
    const { me } = await chatSignIn('TPATTERN', { email: `pat-${kind}@patterned.example` });
    expect(roleIn(me, 'patterned')).toBe('user');
    const joined = await db().selectFrom('audit_log').select('data').where('organization_uid', '=', org.uid).where('kind', '=', 'member.joined').execute();
    expect(joined.map((j) => JSON.parse(j.data).via)).toEqual(['email_pattern']);
  });

  it.each([
    ['"off"', JSON.stringify({ value: 'off' }), '"off"'],
    ['"no"', JSON.stringify({ value: 'no' }), '"no"'],
    ['a number', JSON.stringify({ value: 0 }), '0'],
    ['a broken document', 'off', 'off'],
  ])('auto-join %s is not a boolean: disabled, with a warning naming the organization and the value', async (_label, stored, shown) => {
    people += 1;
    const slug = `odd-${people}`;
    const org = await linkedOrg(slug, `TODD${people}`, { withOwner: true });
    await db()
      .insertInto('parameters')
      .values({ uid: newId(), organization_uid: org.uid, key: 'registration.slack_workspace_auto_join', value: stored, updated_at: new Date().toISOString() })
      .execute();
    const { me } = await chatSignIn(`TODD${people}`);
    expect(roleIn(me, slug)).toBeUndefined();
    expect((await pendingRequests(org.uid)).length).toBe(1);
    const warning = daemon.logs.map((l) => JSON.parse(l)).find((l) => l.level === 40 && l.org === slug);
    expect(warning?.msg).toContain(slug);
    expect(warning?.msg).toContain(shown);
  });

  it('matches only the workspace ID the provider returned, never a name or a URL parameter', async () => {
    await linkedOrg('tother', 'TOTHER', { withOwner: true });
    people += 1;
    chat.next.account = { sub: `U${people}`, [TEAM_CLAIM]: 'TNOTLINKED', email: `x${people}-${kind}@example.com`, email_verified: true, name: 'tother' };
    const browser = new TestBrowser();
    const start = `${daemon.url}/api/v1/auth/team_chat/login?org=tother&team_id=TOTHER&workspace=tother`;
    const landed = new URL(await browser.follow(start, (url) => url.startsWith(`${base}/d/auth/complete`)));
    const exchange = await daemon.request('POST', '/auth/handoff/exchange', { body: { code: landed.searchParams.get('code') } });
    const me = await daemon.request('GET', '/auth/me', { token: exchange.body.accessToken });
    expect(roleIn(me.body, 'tother')).toBeUndefined();
  });

  it('app install with no linked organization creates one from the workspace; the installer becomes its admin', async () => {
    const installer = await daemon.register(`installer-${kind}@example.com`);
    install.next.user = { install: { team: { id: 'TNEW', name: 'New Workspace' }, authed_user: { id: 'UINST' } }, profile: {} };
    const start = await daemon.request('POST', '/auth/team_chat/install', { token: installer.token, body: { returnTo: '/welcome' } });
    expect(start.status).toBe(200);
    const browser = new TestBrowser();
    // The dashboard's fetch stores the cookie that the start answered with.
    browser.setCookie(base, 'svc_oauth_state', new URL(start.body.url).searchParams.get('state')!, '/api/v1/auth/');
    expect(new URL(start.body.url).searchParams.get('scope')).toContain('chat:write');
    const landed = new URL(await browser.follow(start.body.url, (url) => url.startsWith(`${base}/d/auth/complete`)));
    const exchange = await daemon.request('POST', '/auth/handoff/exchange', { body: { code: landed.searchParams.get('code') } });
    expect(exchange.status).toBe(200);
    expect(exchange.body.returnTo).toBe('/welcome');
    expect(roleIn(exchange.body.user, 'new-workspace')).toBe('admin');
    const link = await daemon.request('GET', '/orgs/new-workspace/team-chat-workspace', { token: installer.token });
    expect(link.body).toMatchObject({ workspaceId: 'TNEW', workspaceName: 'New Workspace' });
    // Workspace members who sign in later join it.
    expect(roleIn((await chatSignIn('TNEW')).me, 'new-workspace')).toBe('user');
  });

  it('app install into an existing organization links it; a viewer may not remove the link', async () => {
    const org = await linkedOrg('existing', 'TPLACEHOLDER', { withOwner: true });
    await db().deleteFrom('workspace_links').where('organization_uid', '=', org.uid).execute();
    install.next.user = { install: { team: { id: 'TEXIST', name: 'Exist' }, authed_user: { id: 'UOWN' } }, profile: {} };
    const start = await daemon.request('POST', '/orgs/existing/team-chat-workspace/install', { token: org.ownerToken, body: {} });
    expect(start.status).toBe(200);
    const browser = new TestBrowser();
    browser.setCookie(base, 'svc_oauth_state', new URL(start.body.url).searchParams.get('state')!, '/api/v1/auth/');
    const landed = new URL(await browser.follow(start.body.url, (url) => url.startsWith(`${base}/d/auth/complete`)));
    expect(landed.searchParams.get('code')).toBeTruthy();
    expect((await daemon.request('GET', '/orgs/existing/team-chat-workspace', { token: org.ownerToken })).body.workspaceId).toBe('TEXIST');
    const { token, me } = await chatSignIn('TEXIST');
    expect(roleIn(me, 'existing')).toBe('user');
    await db().updateTable('members').set({ role: 'viewer' }).where('user_uid', '=', me.uid).execute();
    const refused = await daemon.request('DELETE', '/orgs/existing/team-chat-workspace', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
  });

  it('an install whose starter lost the right to change the organization meanwhile links nothing', async () => {
    const org = await linkedOrg('demoted-installer', 'TDEMOTEPLACE', { withOwner: true });
    await db().deleteFrom('workspace_links').where('organization_uid', '=', org.uid).execute();
    install.next.user = { install: { team: { id: 'TDEMOTED', name: 'Demoted' }, authed_user: { id: 'UDEM' } }, profile: {} };
    const start = await daemon.request('POST', '/orgs/demoted-installer/team-chat-workspace/install', { token: org.ownerToken, body: {} });
    expect(start.status).toBe(200);
    await db().updateTable('members').set({ role: 'user' }).where('organization_uid', '=', org.uid).execute();
    const browser = new TestBrowser();
    browser.setCookie(base, 'svc_oauth_state', new URL(start.body.url).searchParams.get('state')!, '/api/v1/auth/');
    const landed = new URL(await browser.follow(start.body.url, (url) => url.startsWith(`${base}/d/auth/complete`)));
    expect(landed.searchParams.get('error')).toBe('install_failed');
    expect((await daemon.request('GET', '/orgs/demoted-installer/team-chat-workspace', { token: org.ownerToken })).body).toEqual({ linked: false });
  });
});
