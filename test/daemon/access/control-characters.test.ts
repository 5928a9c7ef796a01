import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// Names appear in invitation mails (subject and body), log lines and terminals.
const HOSTILE = ['Acme\r\nBcc: everyone@example.com', 'Acme\nCorp', 'Tab\there', 'Esc\u001b[31mred', 'Del\u007f', 'C1\u0085next', 'Line\u2028sep'];

describe.each(DATABASE_KINDS)('control characters in names [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const refused = (res: { status: number; body: any }, path: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.issues).toContainEqual({ path, message: expect.stringContaining('control characters') });
  };

  it('refuses an organization name with a control character, on create and rename, and stores nothing', async () => {
    for (const name of HOSTILE) refused(await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'ctl-org', name } }), 'name');
    expect(await daemon.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'ctl-org').executeTakeFirst()).toBeUndefined();
    for (const name of HOSTILE) refused(await daemon.request('PATCH', '/orgs/default', { token: admin, body: { name } }), 'name');
    expect((await daemon.request('GET', '/orgs/default', { token: admin })).body.name).not.toMatch(/[\r\n]/);
    // Ordinary names, with accents and inner spaces, still pass.
    expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'ctl-ok', name: 'Café Zürich — Ops' } })).status).toBe(201);
  });

  it('refuses a display name with a control character at registration and on rename', async () => {
    for (const name of HOSTILE) {
      refused(await daemon.request('POST', '/auth/register', { body: { email: 'ctl-person@example.com', password: 'password-123', name } }), 'name');
    }
    expect(await daemon.deps.db.kysely.selectFrom('users').select('uid').where('email', '=', 'ctl-person@example.com').executeTakeFirst()).toBeUndefined();
    const { token } = await daemon.register('ctl-renamer@example.com');
    for (const name of HOSTILE) refused(await daemon.request('PATCH', '/auth/me', { token, body: { name } }), 'name');
    const ok = await daemon.request('PATCH', '/auth/me', { token, body: { name: 'Zoë O’Brien' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.name).toBe('Zoë O’Brien');
  });
});
