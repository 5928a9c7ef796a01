import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startEngineSuite, type EngineSuite } from '../../support/engine-suite.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';

// A daemon's dispatcher, and its mailer of status-page subscribers, look for due messages every
// SVC_NOTIFY_POLL_INTERVAL; the messages the daemon queues itself ring their outbox's bell when
// they commit (daemon/notify/outbox-bell.ts) and go out at once. With a poll of ten minutes, only
// the bell brings them within seconds.
const WITHIN_MS = 5_000;

describe.each(DATABASE_KINDS)('messages a daemon queues go out as they commit, not at its next poll [%s]', (kind) => {
  let suite: EngineSuite;

  beforeAll(async () => {
    suite = await startEngineSuite(kind, { env: { SVC_NOTIFY_POLL_INTERVAL: '10m' } });
    await suite.createCheck('Shop');
    // The dispatcher's first look, at its start, found nothing: it now sleeps ten minutes.
  });
  afterAll(() => suite?.stop());

  it('delivers an incident a member opens, and its acknowledgement, within seconds', async () => {
    const opened = await suite.daemon.request('POST', '/orgs/default/incidents', { token: suite.admin, body: { title: 'Mail is slow' } });
    expect(opened.status).toBe(201);
    const [message] = await suite.receiver.waitFor('/hook', 1, WITHIN_MS);
    expect(message.json).toMatchObject({ event: 'incident.opened', incident: { uid: opened.body.uid, title: 'Mail is slow' } });
    const acknowledged = await suite.daemon.request('POST', `/orgs/default/incidents/${opened.body.uid}/acknowledge`, { token: suite.admin });
    expect(acknowledged.status).toBe(200);
    const [, second] = await suite.receiver.waitFor('/hook', 2, WITHIN_MS);
    expect(second.json).toMatchObject({ event: 'incident.acknowledged', incident: { uid: opened.body.uid } });
  });

  it('delivers the incident the engine opens when a check goes down, and its resolution, within seconds', async () => {
    await suite.nextRun();
    suite.status = 503;
    await suite.nextRun();
    const down = await suite.receiver.waitFor('/hook', 3, WITHIN_MS);
    expect(down[2].json).toMatchObject({ event: 'incident.opened', check: { slug: 'shop' }, incident: { title: 'Shop is down' } });
    suite.status = 200;
    await suite.nextRun();
    const up = await suite.receiver.waitFor('/hook', 4, WITHIN_MS);
    expect(up[3].json).toMatchObject({ event: 'incident.resolved', incident: { uid: down[2].json.incident.uid } });
  });
});

describe.each(DATABASE_KINDS)('mail to status-page subscribers goes out as it commits, not at the next poll [%s]', (kind) => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  let admin: string;
  const address = 'reader@example.com';
  const mailsTo = () => smtp.mails.filter((mail) => mail.to.includes(address));
  async function mailArrives(count: number) {
    const deadline = Date.now() + WITHIN_MS;
    while (mailsTo().length < count) {
      if (Date.now() > deadline) throw new Error(`mail ${count} to ${address} did not arrive within ${WITHIN_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return mailsTo()[count - 1];
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, {
      env: { SVC_NOTIFY_POLL_INTERVAL: '10m', SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'status@svc.local', SVC_BASE_URL: 'https://status.example.org' },
    });
    admin = await daemon.adminToken();
    const page = await daemon.request('POST', '/orgs/default/status-pages', {
      token: admin,
      body: { slug: 'status', title: 'Example status', public: true, checks: [] },
    });
    expect(page.status).toBe(201);
  });
  afterAll(async () => {
    await daemon?.stop();
    await smtp?.close();
  });

  it('sends the confirmation of a subscription, then an update, within seconds', async () => {
    expect((await daemon.request('POST', '/public/status/default/status/subscriptions', { body: { email: address } })).status).toBe(202);
    const confirmation = await mailArrives(1);
    const link = /https?:\/\/\S+\/status\/\S+\/confirm\/[A-Za-z0-9_-]+/.exec(confirmation.text)?.[0];
    expect(link).toBeDefined();
    expect((await fetch(`${daemon.url}${new URL(link!).pathname}`, { method: 'POST', redirect: 'manual' })).status).toBe(200);
    const posted = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: { title: 'Searching is slow', body: 'We are looking into it.', state: 'investigating' },
    });
    expect(posted.status).toBe(201);
    const update = await mailArrives(2);
    expect(update.text).toContain('Searching is slow');
  });
});
