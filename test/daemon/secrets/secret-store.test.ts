import { existsSync, readFileSync } from 'node:fs';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember } from '../../support/members.js';
import { call as callTool, connectMcp, mintToken } from '../mcp/mcp-client.js';

const VALUE = 'pw-7f3a9c1e5b2d4a6f8e0c';
const CHANNEL_TOKEN = 'tok_5e1c0a9b8f7d6e5c4b3a2918';
const CHANNEL_URL = 'https://alerts.example.com/hook/c0ffee1234567890deadbeef';

/** The SQLite file's bytes with its write-ahead log, as text: what a stolen copy would show. */
function sqliteBytes(url: string): string {
  const path = url.slice('sqlite:'.length);
  return [path, `${path}-wal`]
    .filter(existsSync)
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

describe.each(DATABASE_KINDS)('organization secrets [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  let user: string;
  let viewer: string;
  const answers: unknown[] = [];
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await daemon.request(method, path, { token, body });
    answers.push(res.body);
    return res;
  };

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    user = (await addMember(daemon, 'secrets-user@example.com', 'user')).token;
    viewer = (await addMember(daemon, 'secrets-viewer@example.com', 'viewer')).token;
  });
  afterAll(() => daemon?.stop());

  it('sets, lists (names and use, never values) and deletes, with audit entries that hold no value', async () => {
    const set = await call('PUT', '/orgs/default/secrets/DB_PASSWORD', admin, { value: VALUE });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ name: 'DB_PASSWORD', created: true, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const again = await call('PUT', '/orgs/default/secrets/DB_PASSWORD', admin, { value: `${VALUE}-2` });
    expect(again.body).toMatchObject({ name: 'DB_PASSWORD', created: false, createdAt: set.body.createdAt });

    const check = await call('POST', '/orgs/default/checks', user, {
      name: 'Orders DB',
      type: 'postgres',
      target: 'db.example.com:5432',
      config: { username: 'monitor', password: '{{secrets.DB_PASSWORD}}' },
    });
    expect(check.status).toBe(201);
    expect(check.body.missingSecrets).toBeUndefined();
    await call('POST', '/orgs/default/checks', user, {
      name: 'API',
      type: 'http',
      target: 'https://api.example.com/',
      config: { headers: { Authorization: 'Bearer {{secrets.DB_PASSWORD}}' } },
    });

    const list = await call('GET', '/orgs/default/secrets', admin);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [{ name: 'DB_PASSWORD', createdAt: set.body.createdAt, updatedAt: expect.any(String), usedBy: ['api', 'orders-db'] }] });

    const deleted = await call('DELETE', '/orgs/default/secrets/DB_PASSWORD', admin);
    expect(deleted.status).toBe(204);
    expect((await call('DELETE', '/orgs/default/secrets/DB_PASSWORD', admin)).status).toBe(404);
    expect((await call('GET', '/orgs/default/secrets', admin)).body).toEqual({ items: [] });

    const audit = await call('GET', '/orgs/default/audit-log', admin);
    const kinds = audit.body.items.map((entry: { kind: string }) => entry.kind);
    expect(kinds.filter((k: string) => k.startsWith('secret.'))).toEqual(['secret.deleted', 'secret.set', 'secret.set']);
    expect(JSON.stringify(audit.body)).toContain('DB_PASSWORD');
  });

  it('lets only admins and owners list, set and delete; users and viewers get 403', async () => {
    for (const token of [user, viewer]) {
      expect((await call('GET', '/orgs/default/secrets', token)).status).toBe(403);
      expect((await call('PUT', '/orgs/default/secrets/X_TOKEN', token, { value: VALUE })).status).toBe(403);
      expect((await call('DELETE', '/orgs/default/secrets/X_TOKEN', token)).status).toBe(403);
    }
    const member = await addMember(daemon, 'secrets-admin@example.com', 'admin');
    expect((await call('PUT', '/orgs/default/secrets/X_TOKEN', member.token, { value: VALUE })).status).toBe(200);
    expect((await call('DELETE', '/orgs/default/secrets/X_TOKEN', member.token)).status).toBe(204);
  });

  it('refuses bad names and values with the documented error shape', async () => {
    for (const name of ['lower', '1ABC', 'A-B', 'A'.repeat(65)]) {
      const res = await call('PUT', `/orgs/default/secrets/${name}`, admin, { value: VALUE });
      expect(res.status, name).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { issues: [{ path: 'name', message: expect.stringContaining('upper-case') }] },
      });
    }
    expect((await call('PUT', '/orgs/default/secrets/OK', admin, { value: '' })).status).toBe(400);
    expect((await call('PUT', '/orgs/default/secrets/OK', admin, { value: VALUE, extra: 1 })).status).toBe(400);
    expect((await call('GET', '/orgs/default/secrets', admin)).body.items).toEqual([]);
  });

  it('says which referenced secrets are missing on validate, create and PATCH (REST and MCP-free paths)', async () => {
    const candidate = { name: 'Cache', type: 'redis', target: 'cache.example.com', config: { password: '{{secrets.CACHE_PASSWORD}}' } };
    const validate = await call('POST', '/orgs/default/checks/validate', user, candidate);
    expect(validate.body).toMatchObject({ valid: true, missingSecrets: ['CACHE_PASSWORD'] });
    const created = await call('POST', '/orgs/default/checks', user, candidate);
    expect(created.status).toBe(201);
    expect(created.body.missingSecrets).toEqual(['CACHE_PASSWORD']);
    await call('PUT', '/orgs/default/secrets/CACHE_PASSWORD', admin, { value: VALUE });
    const patched = await call('PATCH', '/orgs/default/checks/cache', user, { config: { database: 2 } });
    expect(patched.status).toBe(200);
    expect(patched.body.missingSecrets).toBeUndefined();

    const literal = await call('POST', '/orgs/default/checks/validate', user, { ...candidate, config: { password: 'hunter2hunter2' } });
    expect(literal.status).toBe(400);
    expect(literal.body.error.details.issues[0]).toMatchObject({ path: 'config.password', message: expect.stringContaining('secret reference') });
    const header = await call('POST', '/orgs/default/checks/validate', user, {
      name: 'X',
      type: 'http',
      target: 'https://x.example.com/',
      config: { headers: { Authorization: 'Bearer abc' } },
    });
    expect(header.status).toBe(400);
  });

  it('names the missing secrets in the MCP validate_check reply, which never holds a value', async () => {
    const agent = await connectMcp(daemon, await mintToken(daemon, user, ['mcp']));
    try {
      const check = {
        name: 'Broker',
        type: 'mqtt',
        target: 'broker.example.com',
        config: { topic: 'x', username: 'u', password: '{{secrets.BROKER_PASSWORD}}' },
      };
      const missing = await callTool(agent, 'validate_check', { check });
      expect(missing.structuredContent).toMatchObject({ valid: true, missingSecrets: ['BROKER_PASSWORD'] });
      expect(missing.text).toContain('BROKER_PASSWORD');
      await callTool(agent, 'create_check', { check });
      await callTool(agent, 'update_check', { slug: 'broker', changes: { config: { topic: 'y' } } });
      await callTool(agent, 'validate_check', { check: { ...check, config: { ...check.config, password: '{{secrets.CACHE_PASSWORD}}' } } });
      await daemon.request('PUT', '/orgs/default/secrets/BROKER_PASSWORD', { token: admin, body: { value: VALUE } });
      const present = await callTool(agent, 'validate_check', { check });
      expect(present.structuredContent).toMatchObject({ valid: true, missingSecrets: [] });
      const read = await callTool(agent, 'get_check', { slug: 'broker' });
      answers.push(missing, present, read);
      expect(read.text).toContain('{{secrets.BROKER_PASSWORD}}');
      expect(JSON.stringify([missing, present, read])).not.toContain(VALUE);
    } finally {
      await agent.close();
    }
  });

  it('keeps every value, TOTP secret and channel secret out of answers, logs and the stored bytes', async () => {
    await call('PUT', '/orgs/default/secrets/AT_REST', admin, { value: VALUE });
    const channel = await call('POST', '/orgs/default/notification-channels', user, {
      name: 'Hook',
      type: 'webhook',
      config: { url: CHANNEL_URL, bearerToken: CHANNEL_TOKEN },
    });
    expect(channel.status).toBe(201);
    const { token } = await daemon.register(`totp-${kind}@example.com`, 'totp password 1');
    const setup = await daemon.request('POST', '/auth/2fa/setup', { token });
    const totpPending = setup.body.secret as string;
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(totpPending) }).generate();
    expect((await daemon.request('POST', '/auth/2fa/confirm', { token, body: { code } })).status).toBe(200);

    // The values the API may never answer.
    const answered = JSON.stringify(answers);
    for (const secret of [VALUE, CHANNEL_TOKEN, CHANNEL_URL]) expect(answered).not.toContain(secret);
    const logged = daemon.logs.join('\n');
    for (const secret of [VALUE, CHANNEL_TOKEN, CHANNEL_URL, totpPending]) expect(logged).not.toContain(secret);

    // Stored only as keyring ciphertexts.
    const db = daemon.deps.db.kysely;
    const rows = [
      ...(await db.selectFrom('org_secrets').select('value').execute()).map((r) => r.value),
      ...(await db.selectFrom('notification_channels').select('config').execute()).map((r) => r.config),
      ...(await db.selectFrom('users').select(['totp_secret', 'totp_pending_secret']).where('totp_secret', 'is not', null).execute()).map(
        (r) => r.totp_secret!,
      ),
    ];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row).toMatch(/^enc:v1:[A-Za-z0-9_-]{8}:/);
    expect(
      daemon.deps.keyring.decrypt(
        (await db.selectFrom('users').select('totp_secret').where('totp_secret', 'is not', null).executeTakeFirstOrThrow()).totp_secret!,
      ),
    ).toBe(totpPending);

    if (kind === 'sqlite') {
      const bytes = sqliteBytes(daemon.database.url);
      expect(bytes.length).toBeGreaterThan(10_000);
      for (const secret of [VALUE, CHANNEL_TOKEN, CHANNEL_URL, totpPending, 'c0ffee1234567890deadbeef']) expect(bytes).not.toContain(secret);
      expect(bytes).toContain('AT_REST');
    }
  });
});
