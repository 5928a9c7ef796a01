import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { queueMaintenanceMail } from '../../../daemon/status-pages/subscribers/maintenance-mail.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '../../support/smtp.js';

// A public page's confirmed subscribers get a mail a day before a maintenance window of its checks
// and one when it starts, each once however many daemons run the job; a window of no check of the
// page, and an unconfirmed address, get nothing. On PostgreSQL two daemons share one database and
// one clock; SQLite allows one writer per file, and two in one process would wait on each other's
// open transaction, so there the second "daemon" is the first's own database handle.

const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (hours: number, minutes = 0) => new Date(T0 + hours * 3600_000 + minutes * 60_000);
const READER = 'reader@example.com';
const PENDING = 'pending@example.com';
const BASE_URL = 'https://status.example.org';

/** The header section of a mail, its folded lines unfolded. */
function mailHeader(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
}

describe.each(DATABASE_KINDS)('maintenance mail to status-page subscribers [%s]', (kind) => {
  const clock = manualClock(at(0));
  let smtp: TestSmtp;
  let first: TestDaemon;
  let second: TestDaemon | undefined;
  /** The database of the second daemon (the first's on SQLite). */
  const secondDb = () => (second ?? first).deps.db;
  let admin: string;

  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
  const maintenanceMailsTo = (address: string) => mailsTo(address).filter((mail) => mail.subject.includes('Maintenance'));
  async function waitForMaintenanceMail(count: number): Promise<ReceivedMail> {
    const deadline = Date.now() + 10_000;
    while (maintenanceMailsTo(READER).length < count) {
      if (Date.now() > deadline) throw new Error(`maintenance mail ${count} did not arrive`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return maintenanceMailsTo(READER)[count - 1];
  }
  /**
   * The subjects of the maintenance mail queued so far, oldest first: the outbox's rows, each sent
   * once, so no mail can arrive that is not among them.
   */
  const maintenanceQueued = async () =>
    (
      await first.deps.db.kysely.selectFrom('status_page_mail').select('subject').where('kind', '=', 'message').orderBy('created_at').orderBy('uid').execute()
    ).map((row) => row.subject);
  /** Runs the job once more at the clock's time: what the daemons' own runs queue for this time is then queued. */
  const runJob = () => queueMaintenanceMail(first.deps.db, BASE_URL, clock.now());
  const createWindow = async (body: Record<string, unknown>) => {
    const res = await first.request('POST', '/orgs/default/maintenance-windows', { token: admin, body: { timezone: 'UTC', ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const env = { SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'status@svc.local', SVC_BASE_URL: BASE_URL };
    first = await startTestDaemon(kind, { clock, env });
    if (kind === 'postgres') second = await startTestDaemon(kind, { clock, env, database: { ...first.database, drop: async () => {} } });
    admin = await first.adminToken();
    for (const name of ['Website', 'Search', 'Other']) {
      const created = await first.request('POST', '/orgs/default/checks', { token: admin, body: { name, type: 'http', target: 'http://127.0.0.1:9/x' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const page = await first.request('POST', '/orgs/default/status-pages', {
      token: admin,
      body: { slug: 'status', title: 'Example status', public: true, checks: ['website', 'search'] },
    });
    expect(page.status).toBe(201);
    for (const email of [READER, PENDING])
      expect((await first.request('POST', '/public/status/default/status/subscriptions', { body: { email } })).status).toBe(202);
    const deadline = Date.now() + 10_000;
    while (mailsTo(READER).length === 0 || mailsTo(PENDING).length === 0) {
      if (Date.now() > deadline) throw new Error('the confirmations did not arrive');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const link = /https?:\/\/\S+\/confirm\/[A-Za-z0-9_-]+/.exec(mailsTo(READER)[0].text)![0];
    expect((await fetch(`${first.url}${new URL(link).pathname}`, { method: 'POST' })).status).toBe(200);

    // A window of the page's Website; one of a check the page does not list.
    await createWindow({
      title: 'Database upgrade',
      description: 'Writes pause for a few minutes.',
      startsAt: at(30).toISOString(),
      endsAt: at(32).toISOString(),
      timezone: 'Europe/Berlin',
      checks: ['website'],
    });
    // The API refuses line breaks in a title; one stored otherwise (an older import, say) must not add a header.
    await first.deps.db.kysely
      .updateTable('maintenance_windows')
      .set({ title: 'Upgrade\r\nBcc: x@example.net' })
      .where('title', '=', 'Database upgrade')
      .execute();
    await createWindow({ title: 'Other work', startsAt: at(30).toISOString(), endsAt: at(31).toISOString(), checks: ['other'] });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await smtp?.close();
  });

  it('mails the confirmed subscriber a day before, once, with the RFC 8058 headers and no header from the title', async () => {
    clock.set(at(7));
    const mail = await waitForMaintenanceMail(1);
    const text = mail.text.replace(/\r\n/g, '\n');
    // Both daemons ran the job on their own; running it twice more at once queues nothing.
    const again = await Promise.all([queueMaintenanceMail(first.deps.db, BASE_URL, clock.now()), queueMaintenanceMail(secondDb(), BASE_URL, clock.now())]);
    expect(again).toEqual([0, 0]);
    expect(await maintenanceQueued()).toHaveLength(1);
    expect(maintenanceMailsTo(READER)).toHaveLength(1);

    expect(mail.subject).toBe('[Example status] Maintenance scheduled: Upgrade Bcc: x@example.net');
    expect(mailHeader(mail, 'Bcc')).toBeUndefined();
    expect(mail.to).toEqual([READER]);
    expect(text).toContain('From:  2026-03-02 16:00 UTC (2026-03-02 17:00 Europe/Berlin)');
    expect(text).toContain('Until: 2026-03-02 18:00 UTC (2026-03-02 19:00 Europe/Berlin)');
    expect(text).toContain('Affects: Website\n');
    expect(mail.text).toContain('Writes pause for a few minutes.');
    expect(mail.text).toContain(`The status page: ${BASE_URL}/status/default/status`);
    expect(mail.text).not.toContain(PENDING);
    expect(mailHeader(mail, 'List-Unsubscribe')).toMatch(/^<https:\/\/status\.example\.org\/status\/default\/status\/unsubscribe\/[A-Za-z0-9_-]+>$/);
    expect(mailHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('sends only the start mail of a window created less than an hour ahead', async () => {
    await createWindow({ title: 'Search reindex', startsAt: at(7, 10).toISOString(), endsAt: at(7, 40).toISOString(), checks: ['search'] });
    clock.set(at(7, 2));
    await runJob();
    expect(await maintenanceQueued()).toHaveLength(1);
    clock.set(at(7, 11));
    const started = await waitForMaintenanceMail(2);
    expect(started.subject).toBe('[Example status] Maintenance started: Search reindex');
    const text = started.text.replace(/\r\n/g, '\n');
    expect(text).toContain('From:  2026-03-01 17:10 UTC\n');
    expect(text).toContain('Affects: Search\n');
    expect(mailHeader(started, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('mails the start once; not for an occurrence that ended while nobody looked; never for a window of no check of the page, nor to an unconfirmed address', async () => {
    clock.set(at(30, 1));
    const started = await waitForMaintenanceMail(3);
    expect(started.subject).toBe('[Example status] Maintenance started: Upgrade Bcc: x@example.net');
    expect(await queueMaintenanceMail(secondDb(), BASE_URL, clock.now())).toBe(0);

    // Created now for a span that has ended by the time the job looks again (the daemons were down, say).
    await createWindow({ title: 'Missed switch', startsAt: at(30, 30).toISOString(), endsAt: at(30, 40).toISOString(), checks: ['website'] });
    clock.set(at(31));
    await runJob();
    const queued = await maintenanceQueued();
    expect(queued).toHaveLength(3);
    expect(queued.some((subject) => subject.includes('Missed switch'))).toBe(false);

    expect(maintenanceMailsTo(READER).map((mail) => mail.subject)).toEqual([
      '[Example status] Maintenance scheduled: Upgrade Bcc: x@example.net',
      '[Example status] Maintenance started: Search reindex',
      '[Example status] Maintenance started: Upgrade Bcc: x@example.net',
    ]);
    expect(smtp.mails.some((mail) => mail.subject.includes('Other work') || mail.text.includes('Other work'))).toBe(false);
    expect(mailsTo(PENDING).map((mail) => mail.subject)).toEqual(['Confirm your subscription to Example status']);
  });
});
