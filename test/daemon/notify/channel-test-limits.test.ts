import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { createEgressPolicy } from '../../../probes/egress.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startFakeReceivers, type FakeReceivers } from '../../support/fakes/notify-receivers.js';
import { addMember } from '../../support/members.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';

describe.each(DATABASE_KINDS)('channel test messages are bounded [%s]', (kind) => {
  const clock = manualClock(new Date('2026-05-01T09:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let receiver: FakeReceivers;
  let smtp: TestSmtp;

  beforeAll(async () => {
    receiver = await startFakeReceivers();
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { clock, egress: createEgressPolicy({ denyPrivate: false }), env: { SVC_SMTP_URL: smtp.url } });
    admin = await daemon.adminToken();
    expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'other', name: 'Other' } })).status).toBe(201);
  });
  afterAll(async () => {
    await daemon?.stop();
    await receiver?.close();
    await smtp?.close();
  });

  const channel = async (org: string, body: Record<string, unknown>) => {
    const created = await daemon.request('POST', `/orgs/${org}/notification-channels`, { token: admin, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.uid as string;
  };
  const test = (org: string, uid: string) => daemon.request('POST', `/orgs/${org}/notification-channels/${uid}/test`, { token: admin });

  it('sends at most 10 test messages an hour per organization, then answers 429 and sends nothing', async () => {
    const hook = await channel('default', { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` } });
    const before = receiver.at('/hook').length;
    for (let i = 0; i < 10; i++) expect((await test('default', hook)).body.ok).toBe(true);
    const refused = await test('default', hook);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(receiver.at('/hook').length).toBe(before + 10);
    // Another organization has its own allowance.
    const theirs = await channel('other', { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/other` } });
    expect((await test('other', theirs)).body.ok).toBe(true);
    clock.advance(3601_000);
    expect((await test('default', hook)).body.ok).toBe(true);
    expect(receiver.at('/hook').length).toBe(before + 11);
  });

  it("sends an e-mail channel's test only to the addresses of the organization's members", async () => {
    await addMember(daemon, 'member@example.com', 'user');
    const mixed = await channel('default', { name: 'mixed', type: 'email', config: { addresses: ['Member@example.com', 'outsider@example.net'] } });
    clock.advance(3601_000);
    const before = smtp.mails.length;
    expect((await test('default', mixed)).body.ok).toBe(true);
    expect(smtp.mails.slice(before).map((mail) => mail.to)).toEqual([['member@example.com']]);
    expect(smtp.mails.some((mail) => mail.to.includes('outsider@example.net'))).toBe(false);

    const outside = await channel('default', { name: 'outside', type: 'email', config: { addresses: ['outsider@example.net', 'admin@other.example'] } });
    const refused = await test('default', outside);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0].path).toBe('config.addresses');
    expect(smtp.mails.some((mail) => mail.to.includes('outsider@example.net'))).toBe(false);
  });
});
