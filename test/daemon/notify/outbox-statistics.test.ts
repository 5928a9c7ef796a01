import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../daemon/db/ids.js';
import { openIncident } from '../../../daemon/incidents/incident-lifecycle.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';

// A burst of messages lands in an outbox whose planner statistics still say next to nothing is
// pending; the outbox's loop refreshes them when a lease comes back full
// (daemon/notify/outbox-statistics.ts), so the next leases walk the due index and stop at their batch.

const lastAnalyze = async (daemon: TestDaemon, table: string) =>
  (await sql<{ at: Date | null }>`select last_analyze as at from pg_stat_user_tables where relname = ${table}`.execute(daemon.deps.db.kysely)).rows[0]?.at ??
  null;

/** Waits until `done` holds, up to 30 s. */
async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe.runIf(DATABASE_KINDS.includes('postgres'))('the notification outbox after a burst of incidents [postgres]', () => {
  let daemon: TestDaemon;
  let receiver: Server;
  const received = new Set<string>();

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.add(String(req.headers['x-svc-delivery']));
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    daemon = await startTestDaemon('postgres');
    const admin = await daemon.adminToken();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'hook', type: 'webhook', config: { url }, default: true },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await daemon.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('refreshes the statistics once a lease comes back full, and delivers every message', async () => {
    expect(await lastAnalyze(daemon, 'notification_outbox')).toBeNull();
    const { kysely } = daemon.deps.db;
    const org = await kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow();
    await kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < 60; i++) await openIncident(trx, { organizationUid: org.uid, title: `Burst ${i}`, check: null, openedBy: null }, new Date());
    });
    await until(async () => received.size >= 60 && (await lastAnalyze(daemon, 'notification_outbox')) !== null);
    expect(received.size).toBe(60);
    expect(await lastAnalyze(daemon, 'notification_outbox')).toBeInstanceOf(Date);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))("the subscriber mail outbox after an update to a page's subscribers [postgres]", () => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  const SUBSCRIBERS = 60;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon('postgres', { env: { SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'status@svc.local' } });
    const admin = await daemon.adminToken();
    const page = await daemon.request('POST', '/orgs/default/status-pages', {
      token: admin,
      body: { slug: 'status', title: 'Status', public: true, checks: [] },
    });
    expect(page.status).toBe(201);
    const { kysely } = daemon.deps.db;
    const { uid } = await kysely.selectFrom('status_pages').select('uid').where('slug', '=', 'status').executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    // Subscribers who confirmed long ago: the page's readers.
    await kysely
      .insertInto('status_page_subscribers')
      .values(
        Array.from({ length: SUBSCRIBERS }, (_, i) => ({
          uid: newId(),
          status_page_uid: uid,
          email: `reader${i}@example.com`,
          email_key: `reader${i}@example.com`,
          confirm_token_hash: null,
          confirm_sent_at: null,
          confirmed_at: at,
          created_at: at,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await daemon?.stop();
    await smtp?.close();
  });

  it('refreshes the statistics once a lease comes back full, and sends every mail', async () => {
    expect(await lastAnalyze(daemon, 'status_page_mail')).toBeNull();
    const admin = await daemon.adminToken();
    const update = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: { title: 'Slow logins', body: 'We are looking into it.', state: 'investigating' },
    });
    expect(update.status).toBe(201);
    const readers = () => new Set(smtp.mails.flatMap((mail) => mail.to).filter((address) => address.startsWith('reader')));
    await until(async () => readers().size >= SUBSCRIBERS && (await lastAnalyze(daemon, 'status_page_mail')) !== null);
    expect(readers().size).toBe(SUBSCRIBERS);
    expect(await lastAnalyze(daemon, 'status_page_mail')).toBeInstanceOf(Date);
  });
});
