import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { sha256 } from '../../../daemon/crypto/tokens.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { createOrg } from './helpers.js';

describe.each(DATABASE_KINDS)('personal access tokens [%s]', (kind) => {
  let daemon: TestDaemon;
  const clock = manualClock(new Date('2026-05-01T08:00:00Z'));
  let ann: { token: string; uid: string };
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    ann = await daemon.register('ann@example.com');
    await createOrg(daemon, ann.token, 'acme');
  });
  afterAll(() => daemon.stop());

  const mint = (body: Record<string, unknown>, token = ann.token) =>
    daemon.request('POST', '/auth/tokens', { token, body: { name: 'ci', org: 'acme', ...body } });
  // A write every owner may make, to probe what a token's scopes allow.
  const write = (token: string) => daemon.request('PATCH', '/orgs/acme', { token, body: { memberLimit: 100 } });
  const read = (token: string) => daemon.request('GET', '/orgs/acme', { token });

  it('is shown once, recognisable, and stored only as its SHA-256', async () => {
    const res = await mint({ name: 'deploy bot' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'deploy bot', org: 'acme', scopes: ['api', 'mcp'], expiresAt: null, lastUsedAt: null });
    expect(res.body.token).toMatch(/^svc_pat_[A-Za-z0-9_-]{40,}$/);
    const row = await daemon.deps.db.kysely.selectFrom('personal_tokens').selectAll().where('uid', '=', res.body.uid).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(res.body.token));
    expect(JSON.stringify(row)).not.toContain(res.body.token);
    const list = await daemon.request('GET', '/auth/tokens', { token: ann.token });
    expect(list.body.items.find((t: { uid: string }) => t.uid === res.body.uid)).toMatchObject({ name: 'deploy bot', org: 'acme' });
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);
    expect(JSON.stringify(list.body)).not.toContain(row.token_hash);
  });

  it('records when it was last used', async () => {
    const res = await mint({});
    expect((await read(res.body.token)).status).toBe(200);
    const list = await daemon.request('GET', '/auth/tokens', { token: ann.token });
    expect(list.body.items.find((t: { uid: string }) => t.uid === res.body.uid).lastUsedAt).toBe(clock.now().toISOString());
  });

  it('enforces its scopes on REST: api writes, api:read only reads, mcp and mcp:read get 403', async () => {
    const api = (await mint({ scopes: ['api'] })).body.token;
    const apiRead = (await mint({ scopes: ['api:read'] })).body.token;
    const mcp = (await mint({ scopes: ['mcp'] })).body.token;
    const mcpRead = (await mint({ scopes: ['mcp:read'] })).body.token;
    expect((await write(api)).status).toBe(200);
    expect((await read(apiRead)).status).toBe(200);
    for (const token of [apiRead, mcp, mcpRead]) {
      const res = await write(token);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await read(mcpRead)).status).toBe(403);
  });

  it('stops working once expired', async () => {
    const expiresAt = new Date(clock.now().getTime() + 3600_000).toISOString();
    const res = await mint({ expiresAt });
    expect(res.body.expiresAt).toBe(expiresAt);
    expect((await read(res.body.token)).status).toBe(200);
    clock.advance(3600_000);
    const expired = await read(res.body.token);
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('UNAUTHORIZED');
    const past = await mint({ expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.error.details.issues[0].path).toBe('expiresAt');
  });

  it('is revoked at once, only by its owner, and the revocation is idempotent', async () => {
    const res = await mint({});
    const bob = await daemon.register('bob@example.com');
    expect((await daemon.request('DELETE', `/auth/tokens/${res.body.uid}`, { token: bob.token })).status).toBe(404);
    expect((await daemon.request('DELETE', `/auth/tokens/${res.body.uid}`, { token: ann.token })).status).toBe(204);
    expect((await read(res.body.token)).status).toBe(401);
    expect((await daemon.request('DELETE', `/auth/tokens/${res.body.uid}`, { token: ann.token })).status).toBe(204);
    const list = await daemon.request('GET', '/auth/tokens', { token: ann.token });
    expect(list.body.items.some((t: { uid: string }) => t.uid === res.body.uid)).toBe(false);
  });

  it('records creation and revocation in the audit log, without the secret', async () => {
    const res = await mint({ name: 'audited', scopes: ['mcp:read'] });
    await daemon.request('DELETE', `/auth/tokens/${res.body.uid}`, { token: ann.token });
    const log = await daemon.request('GET', '/orgs/acme/audit-log?kind=token.created,token.revoked&limit=2', { token: ann.token });
    expect(log.body.items.map((e: { kind: string }) => e.kind)).toEqual(['token.revoked', 'token.created']);
    expect(log.body.items[1].data).toEqual({ tokenUid: res.body.uid, name: 'audited', scopes: ['mcp:read'], expiresAt: null });
    expect(JSON.stringify(log.body)).not.toContain(res.body.token);
  });

  it('is minted only for an organization of the caller, with valid input, and never by a token', async () => {
    const bob = await daemon.register('bob2@example.com');
    const foreign = await mint({}, bob.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    const bad = await daemon.request('POST', '/auth/tokens', { token: ann.token, body: { name: '', org: 'acme', scopes: ['root'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['name', 'scopes.0']);
    const pat = (await mint({})).body.token;
    for (const [method, path] of [
      ['POST', '/auth/tokens'],
      ['GET', '/auth/tokens'],
      ['DELETE', '/auth/tokens/x'],
    ] as const) {
      const res = await daemon.request(method, path, { token: pat, body: method === 'POST' ? { name: 'child', org: 'acme' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });
});
