import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe.each(DATABASE_KINDS)('sessions [%s]', (kind) => {
  let daemon: TestDaemon;
  const clock = manualClock(new Date());
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
  });
  afterAll(() => daemon.stop());

  /** Signs in with a recognisable user agent and returns the token. */
  async function signIn(email: string, password: string, agent: string): Promise<string> {
    const res = await daemon.request('POST', '/auth/login', { body: { email, password }, headers: { 'user-agent': agent } });
    expect(res.status).toBe(200);
    return res.body.accessToken;
  }
  const me = (token: string) => daemon.request('GET', '/auth/me', { token }).then((r) => r.status);

  it('lists the caller’s live sessions with their details, marking the current one', async () => {
    await daemon.register('ann@example.com', 'anns password');
    const laptop = await signIn('ann@example.com', 'anns password', 'laptop-browser/1.0');
    clock.advance(1000);
    await signIn('ann@example.com', 'anns password', 'phone-app/2.0');
    const res = await daemon.request('GET', '/auth/sessions', { token: laptop });
    expect(res.status).toBe(200);
    const items = res.body.items as Record<string, unknown>[];
    // The registration helper signed in once too.
    expect(items).toHaveLength(3);
    const current = items.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ method: 'password', userAgent: 'laptop-browser/1.0' });
    expect(items.map((s) => s.userAgent)).toContain('phone-app/2.0');
    for (const s of items) {
      expect(Object.keys(s).sort()).toEqual(['clientAddress', 'createdAt', 'current', 'expiresAt', 'id', 'lastSeenAt', 'method', 'userAgent']);
      expect(String(s.clientAddress)).toMatch(/127\.0\.0\.1$/);
      expect(Date.parse(String(s.createdAt))).not.toBeNaN();
      expect(Date.parse(String(s.lastSeenAt))).not.toBeNaN();
    }
    // Another account's sessions never show.
    const other = await daemon.register('bob@example.com', 'bobs password');
    const bobs = await daemon.request('GET', '/auth/sessions', { token: other.token });
    expect(bobs.body.items).toHaveLength(1);
    expect(bobs.body.items[0].current).toBe(true);
  });

  it('revoking one session ends exactly that one at its next request', async () => {
    const { token: first } = await daemon.register('carol@example.com', 'carols password');
    const second = await signIn('carol@example.com', 'carols password', 'second');
    const third = await signIn('carol@example.com', 'carols password', 'third');
    const listed = await daemon.request('GET', '/auth/sessions', { token: first });
    const target = listed.body.items.find((s: { userAgent: string }) => s.userAgent === 'second');
    // Still fine just before.
    expect(await me(second)).toBe(200);

    const res = await daemon.request('DELETE', `/auth/sessions/${target.id}`, { token: first });
    expect(res.status).toBe(204);
    const next = await daemon.request('GET', '/auth/me', { token: second });
    expect(next.status).toBe(401);
    expect(next.body.error.code).toBe('UNAUTHORIZED');
    expect(await me(first)).toBe(200);
    expect(await me(third)).toBe(200);
    const after = await daemon.request('GET', '/auth/sessions', { token: first });
    expect(after.body.items.map((s: { id: string }) => s.id)).not.toContain(target.id);
    expect(after.body.items).toHaveLength(2);

    // Ending it again, or a session of another account, answers 404 and ends nothing.
    expect((await daemon.request('DELETE', `/auth/sessions/${target.id}`, { token: first })).status).toBe(404);
    const dan = await daemon.register('dan@example.com', 'dans password');
    const dansSession = (await daemon.request('GET', '/auth/sessions', { token: dan.token })).body.items[0].id;
    expect((await daemon.request('DELETE', `/auth/sessions/${dansSession}`, { token: first })).status).toBe(404);
    expect(await me(dan.token)).toBe(200);
  });

  it('can end the current session too', async () => {
    const { token } = await daemon.register('erin@example.com', 'erins password');
    const other = await signIn('erin@example.com', 'erins password', 'other');
    const own = (await daemon.request('GET', '/auth/sessions', { token })).body.items.find((s: { current: boolean }) => s.current);
    expect((await daemon.request('DELETE', `/auth/sessions/${own.id}`, { token })).status).toBe(204);
    expect(await me(token)).toBe(401);
    expect(await me(other)).toBe(200);
  });

  it('POST /auth/logout?all=true ends every other session and keeps the current one', async () => {
    const { token: keep } = await daemon.register('fay@example.com', 'fays password');
    const others = [await signIn('fay@example.com', 'fays password', 'a'), await signIn('fay@example.com', 'fays password', 'b')];
    const bad = await daemon.request('POST', '/auth/logout?all=yes', { token: keep });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toBe('all');
    const res = await daemon.request('POST', '/auth/logout?all=true', { token: keep });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    for (const token of others) expect(await me(token)).toBe(401);
    expect(await me(keep)).toBe(200);
    expect((await daemon.request('GET', '/auth/sessions', { token: keep })).body.items).toHaveLength(1);
    // Without ?all the plain sign-out still ends the current session only.
    expect((await daemon.request('POST', '/auth/logout?all=false', { token: keep })).status).toBe(204);
    expect(await me(keep)).toBe(401);
  });

  it('a personal access token can neither list nor end sessions', async () => {
    const { token } = await daemon.register('gus@example.com', 'gus password');
    expect((await daemon.request('POST', '/orgs', { token, body: { slug: 'gus-org', name: 'Gus' } })).status).toBe(201);
    const minted = await daemon.request('POST', '/auth/tokens', { token, body: { name: 'ci', org: 'gus-org' } });
    expect(minted.status).toBe(201);
    const pat = minted.body.token;
    expect((await daemon.request('GET', '/auth/sessions', { token: pat })).status).toBe(403);
    const id = (await daemon.request('GET', '/auth/sessions', { token })).body.items[0].id;
    expect((await daemon.request('DELETE', `/auth/sessions/${id}`, { token: pat })).status).toBe(403);
    expect(await me(token)).toBe(200);
  });

  it('a super admin can end all sessions of an account', async () => {
    const admin = await daemon.adminToken();
    const { token, uid } = await daemon.register('hank@example.com', 'hanks password');
    const second = await signIn('hank@example.com', 'hanks password', 'second');
    expect((await daemon.request('DELETE', `/system/users/${uid}/sessions`, { token })).status).toBe(403);
    const res = await daemon.request('DELETE', `/system/users/${uid}/sessions`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    expect(await me(token)).toBe(401);
    expect(await me(second)).toBe(401);
    expect(await me(admin)).toBe(200);
    expect((await daemon.request('DELETE', '/system/users/no-such-user/sessions', { token: admin })).status).toBe(404);
  });

  it('leaves expired sessions out of the list (injected clock)', async () => {
    const { token: old } = await daemon.register('ivy@example.com', 'ivys password');
    clock.advance(7 * 86400_000 - 60_000);
    const fresh = await signIn('ivy@example.com', 'ivys password', 'fresh');
    expect((await daemon.request('GET', '/auth/sessions', { token: fresh })).body.items).toHaveLength(2);
    clock.advance(120_000);
    expect(await me(old)).toBe(401);
    const items = (await daemon.request('GET', '/auth/sessions', { token: fresh })).body.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ current: true, userAgent: 'fresh' });
  });
});
