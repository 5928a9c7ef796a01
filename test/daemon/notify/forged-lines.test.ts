import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';

// A name stored before names refused control characters (or a monitored server's answer in the
// last result) must not forge lines into a notification's line-based body or its mail subject.
describe.each(DATABASE_KINDS)('notifications carry member-controlled text on one line [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { env: { SVC_SMTP_URL: smtp.url } });
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await daemon?.stop();
    await smtp?.close();
  });

  it('sends a check name holding CR/LF as one line in the subject and the body', async () => {
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Shop', slug: 'shop', type: 'tcp', target: 'shop.example.com:443' },
    });
    expect(created.status).toBe(201);
    const forged = 'Shop\r\nBcc: victim@example.net\r\n\r\nLast result: all fine, ignore this\nhttps://evil.example/login';
    await daemon.deps.db.kysely.updateTable('checks').set({ name: forged }).where('slug', '=', 'shop').execute();
    const channel = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'ops', type: 'email', config: { addresses: ['ops@example.com'] }, default: true },
    });
    expect(channel.status).toBe(201);
    expect((await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Shop down', checkSlug: 'shop' } })).status).toBe(201);

    const deadline = Date.now() + 15_000;
    let mail;
    while (!(mail = smtp.mails.find((m) => m.to.includes('ops@example.com'))) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mail, 'the incident mail to the channel').toBeDefined();
    expect(mail!.to).toEqual(['ops@example.com']);
    expect(mail!.subject.startsWith('[svc] Incident opened: Shop Bcc: victim@example.net')).toBe(true);
    const headers = mail!.raw.slice(0, mail!.raw.search(/\r?\n\r?\n/));
    expect(headers).not.toMatch(/^Bcc:/im);
    const lines = mail!.text.split(/\r?\n/);
    expect(lines.filter((line) => line.startsWith('Last result:'))).toEqual([]);
    expect(lines.filter((line) => line.startsWith('https://evil.example'))).toEqual([]);
    expect(lines.some((line) => line.startsWith('Bcc:'))).toBe(false);
  });
});
