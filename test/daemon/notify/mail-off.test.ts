import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// With no SMTP server configured, a member's personal e-mail about an incident is not
// attempted: start-up says once that e-mail is off, and no incident logs a delivery warning.
describe.each(DATABASE_KINDS)('personal e-mail with no SMTP server [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, {});
    admin = await daemon.adminToken();
    await daemon.deps.db.kysely.updateTable('users').set({ email_verified: 1 }).execute();
  });
  afterAll(() => daemon.stop());

  it('says once at start-up that e-mail is off, and records the member’s mail as not sent without a warning', async () => {
    expect(daemon.logs.filter((line) => line.includes('e-mail is off'))).toHaveLength(1);
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'No mail' } });
    expect(opened.status).toBe(201);
    const personal = () => daemon.deps.db.kysely.selectFrom('notification_outbox').selectAll().where('channel_uid', 'is', null).execute();
    let rows = await personal();
    expect(rows.length).toBeGreaterThan(0);
    for (let tries = 0; tries < 100 && rows.some((row) => row.status === 'pending'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await personal();
    }
    expect(rows.map((row) => [row.status, row.attempts, row.last_error])).toEqual(
      rows.map(() => ['failed', 1, 'e-mail is off: no SMTP server is configured (SVC_SMTP_URL)']),
    );
    expect(daemon.logs.filter((line) => line.includes('notification delivery failed'))).toEqual([]);
  });
});
