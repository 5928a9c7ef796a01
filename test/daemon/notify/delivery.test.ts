import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { createEgressPolicy } from '../../../probes/egress.js';
import { makeCertificates } from '../../probes/support/certificates.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { startFakeReceivers, type FakeReceivers } from '../../support/fakes/notify-receivers.js';
import { addMember } from '../../support/members.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';
import { freePort } from '../../support/local-servers.js';

const SIGNING_SECRET = 'whsec-test-signing-secret-0123456789';
const TELEGRAM_TOKEN = '123456:telegram-bot-token-secret';
const ROUTING_KEY = 'R0UTINGKEYR0UTINGKEY0123456789ab';

/** The receiver's side of X-Svc-Signature, as docs/notifications.md shows it. */
function verifySignature(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(DATABASE_KINDS)('notification delivery to every channel type [%s]', (kind) => {
  const clock = manualClock(new Date('2026-05-01T09:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let https: FakeReceivers;
  let http: FakeReceivers;
  let smtp: TestSmtp;
  const channels: Record<string, string> = {};

  beforeAll(async () => {
    const certificates = makeCertificates();
    https = await startFakeReceivers({ tls: certificates.valid });
    http = await startFakeReceivers();
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, {
      clock,
      egress: createEgressPolicy({ denyPrivate: false, extraCaCertificates: [certificates.ca] }),
      env: {
        SVC_SMTP_URL: smtp.url,
        SVC_BASE_URL: 'https://svc.example.com',
        SVC_NOTIFY_SLACK_API_URL: `${https.url}/slack-api`,
        SVC_NOTIFY_TELEGRAM_API_URL: `${https.url}/telegram`,
        SVC_NOTIFY_PAGERDUTY_API_URL: `${https.url}/pagerduty`,
        SVC_NOTIFY_OPSGENIE_API_URL: `${https.url}/opsgenie`,
        SVC_NOTIFY_NTFY_URL: `${https.url}/ntfy`,
        SVC_NOTIFY_PUSHOVER_API_URL: `${https.url}/pushover`,
      },
    });
    admin = await daemon.adminToken();
    const configs: Record<string, [string, Record<string, unknown>]> = {
      email: ['email', { addresses: ['oncall@example.com'] }],
      webhook: ['webhook', { url: `${http.url}/hook/receive`, signingSecret: SIGNING_SECRET, bearerToken: 'hook-bearer-token-1234' }],
      slackHook: ['slack', { webhookUrl: `${https.url}/slack-hook/T000/B000/XXXX` }],
      slackBot: ['slack', { botToken: 'xoxb-slack-bot-token-secret', channel: '#ops' }],
      discord: ['discord', { webhookUrl: `${https.url}/discord/api/webhooks/1/tok` }],
      teams: ['teams', { webhookUrl: `${https.url}/teams/workflows/abc` }],
      telegram: ['telegram', { botToken: TELEGRAM_TOKEN, chatId: '-100200300' }],
      pagerduty: ['pagerduty', { routingKey: ROUTING_KEY }],
      opsgenie: ['opsgenie', { apiKey: 'opsgenie-api-key-secret' }],
      googlechat: ['googlechat', { webhookUrl: `${https.url}/googlechat/v1/spaces/AAA/messages?key=k&token=t` }],
      mattermost: ['mattermost', { webhookUrl: `${http.url}/mattermost/hooks/xyz` }],
      ntfy: ['ntfy', { topic: 'svc-alerts' }],
      pushover: ['pushover', { userKey: 'u'.repeat(30), appToken: 'a'.repeat(30) }],
    };
    for (const [name, [type, config]] of Object.entries(configs)) {
      const res = await daemon.request('POST', '/orgs/default/notification-channels', { token: admin, body: { name, type, config } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      channels[name] = res.body.uid;
    }
    expect(
      (
        await daemon.request('POST', '/orgs/default/checks', {
          token: admin,
          body: { name: 'Shop API', type: 'http', target: 'https://shop.example.com/health' },
        })
      ).status,
    ).toBe(201);
    const chose = await daemon.request('PUT', '/orgs/default/checks/shop-api/channels', { token: admin, body: { channels: Object.values(channels) } });
    expect(chose.status).toBe(200);
  });
  afterAll(async () => {
    await daemon?.stop();
    await Promise.all([https?.close(), http?.close(), smtp?.close()]);
  });

  it('sends one message per event and channel, in each service’s own request shape', async () => {
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Checkout fails', checkSlug: 'shop-api' } });
    expect(opened.status).toBe(201);
    const incident = opened.body.uid as string;

    const hook = (await http.waitFor('/hook', 1))[0];
    expect(hook.headers.authorization).toBe('Bearer hook-bearer-token-1234');
    expect(verifySignature(String(hook.headers['x-svc-signature']), hook.body, SIGNING_SECRET)).toBe(true);
    expect(verifySignature(String(hook.headers['x-svc-signature']), hook.body.replace('Checkout', 'Checkin'), SIGNING_SECRET)).toBe(false);
    expect(hook.json).toMatchObject({
      event: 'incident.opened',
      check: { slug: 'shop-api', name: 'Shop API', type: 'http', target: 'https://shop.example.com/health' },
      incident: { uid: incident, status: 'open', title: 'Checkout fails' },
      link: 'https://svc.example.com/orgs/default/checks/shop-api',
    });
    expect(hook.json.text).toContain('Since: 2026-05-01T09:00:00.000Z');

    expect((await https.waitFor('/slack-hook', 1))[0].json.text).toContain('Incident opened: Shop API');
    const bot = (await https.waitFor('/slack-api/chat.postMessage', 1))[0];
    expect(bot.headers.authorization).toBe('Bearer xoxb-slack-bot-token-secret');
    expect(bot.json.channel).toBe('#ops');
    expect((await https.waitFor('/discord', 1))[0].json.content).toContain('Shop API');
    expect((await https.waitFor('/teams', 1))[0].json.attachments[0].content.type).toBe('AdaptiveCard');
    const telegram = (await https.waitFor(`/telegram/bot${TELEGRAM_TOKEN}/sendMessage`, 1))[0];
    expect(telegram.json).toMatchObject({ chat_id: '-100200300', text: expect.stringContaining('https://svc.example.com/orgs/default/checks/shop-api') });
    const trigger = (await https.waitFor('/pagerduty/v2/enqueue', 1))[0].json;
    expect(trigger).toMatchObject({ routing_key: ROUTING_KEY, event_action: 'trigger', dedup_key: `svc-${incident}`, payload: { severity: 'critical' } });
    const alert = (await https.waitFor('/opsgenie/v2/alerts', 1))[0];
    expect(alert.headers.authorization).toBe('GenieKey opsgenie-api-key-secret');
    expect(alert.json.alias).toBe(`svc-${incident}`);
    expect((await https.waitFor('/googlechat', 1))[0].json.text).toContain('Shop API');
    expect((await http.waitFor('/mattermost', 1))[0].json.text).toContain('Shop API');
    expect((await https.waitFor('/ntfy', 1))[0].json).toMatchObject({ topic: 'svc-alerts', click: 'https://svc.example.com/orgs/default/checks/shop-api' });
    expect((await https.waitFor('/pushover/1/messages.json', 1))[0].json).toMatchObject({ token: 'a'.repeat(30), user: 'u'.repeat(30) });
    const mail = await smtp.waitFor('oncall@example.com');
    expect(mail.subject).toContain('Incident opened: Shop API');
    expect(mail.text).toContain('https://svc.example.com/orgs/default/checks/shop-api');

    clock.advance(60_000);
    expect((await daemon.request('POST', `/orgs/default/incidents/${incident}/acknowledge`, { token: admin })).status).toBe(200);
    clock.advance(60_000);
    expect((await daemon.request('POST', `/orgs/default/incidents/${incident}/resolve`, { token: admin })).status).toBe(200);
    // Repeating a step changes nothing, so it sends nothing.
    await daemon.request('POST', `/orgs/default/incidents/${incident}/resolve`, { token: admin });

    const pagerduty = await https.waitFor('/pagerduty/v2/enqueue', 3);
    expect(pagerduty.map((r) => [r.json.event_action, r.json.dedup_key])).toEqual([
      ['trigger', `svc-${incident}`],
      ['acknowledge', `svc-${incident}`],
      ['resolve', `svc-${incident}`],
    ]);
    expect((await https.waitFor('/opsgenie', 3)).map((r) => r.path)).toEqual([
      '/opsgenie/v2/alerts',
      `/opsgenie/v2/alerts/svc-${incident}/acknowledge?identifierType=alias`,
      `/opsgenie/v2/alerts/svc-${incident}/close?identifierType=alias`,
    ]);
    await until('three mails', () => smtp.mails.filter((m) => m.to.includes('oncall@example.com')).length === 3 || undefined);
    // Every message of the incident was in the outbox when its request answered; once none is
    // left to send, every one has arrived and no stray duplicate can still come.
    const outbox = () => daemon.deps.db.kysely.selectFrom('notification_outbox').select('status').where('incident_uid', '=', incident).execute();
    await until('every message of the incident sent', async () => ((await outbox()).every((row) => row.status === 'sent') ? true : undefined));
    for (const prefix of ['/slack-hook', '/slack-api', '/discord', '/teams', '/telegram', '/pagerduty', '/opsgenie', '/googlechat', '/ntfy', '/pushover']) {
      expect(https.at(prefix), prefix).toHaveLength(3);
    }
    expect(http.at('/hook').map((r) => r.json.event)).toEqual(['incident.opened', 'incident.acknowledged', 'incident.resolved']);
    expect(http.at('/mattermost')).toHaveLength(3);
    expect(smtp.mails.filter((m) => m.to.includes('oncall@example.com'))).toHaveLength(3);
    const counted = await daemon.deps.metrics.notificationDeliveries.get();
    expect(counted.values.find((v) => v.labels.channel_type === 'pagerduty' && v.labels.result === 'sent')?.value).toBe(3);
  });

  it('logs each delivery with its attempts and response code, never a secret; the test route answers the result', async () => {
    const log = await daemon.request('GET', `/orgs/default/notification-channels/${channels.telegram}/deliveries`, { token: admin });
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(3);
    expect(log.body.items[0]).toMatchObject({ event: 'incident.resolved', status: 'sent', attempts: 1, responseCode: 200, error: null });
    expect(JSON.stringify(log.body)).not.toContain(TELEGRAM_TOKEN);

    const test = await daemon.request('POST', `/orgs/default/notification-channels/${channels.pagerduty}/test`, { token: admin });
    expect(test.body).toEqual({ ok: true, responseCode: 202, error: null });
    expect(https.at('/pagerduty').at(-1)!.json).toMatchObject({
      event_action: 'trigger',
      payload: { severity: 'info', summary: expect.stringContaining('Test notification') },
    });
    const missing = await daemon.request('GET', '/orgs/default/notification-channels/nope/deliveries', { token: admin });
    expect(missing.status).toBe(404);
  });

  it('follows no redirect and connects to no link-local address', async () => {
    const make = async (name: string, url: string) =>
      (await daemon.request('POST', '/orgs/default/notification-channels', { token: admin, body: { name, type: 'webhook', config: { url } } })).body
        .uid as string;
    const moved = await daemon.request('POST', `/orgs/default/notification-channels/${await make('moved', `${http.url}/moved/x`)}/test`, { token: admin });
    expect(moved.body).toEqual({
      ok: false,
      responseCode: 302,
      error: expect.stringMatching(/^127\.0\.0\.1:\d+ answered HTTP 302 \(a redirect, not followed\)$/),
    });
    const metadata = await daemon.request(
      'POST',
      `/orgs/default/notification-channels/${await make('metadata', 'http://169.254.169.254/latest/meta-data')}/test`,
      { token: admin },
    );
    expect(metadata.body).toMatchObject({ ok: false, responseCode: null, error: expect.stringContaining('egress policy refuses 169.254.169.254') });
    expect(metadata.body.error).not.toContain('meta-data');
  });

  it('validates the check’s channel choice against the organization’s channels', async () => {
    const bad = await daemon.request('PUT', '/orgs/default/checks/shop-api/channels', {
      token: admin,
      body: { channels: [channels.email, 'no-such-channel'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues).toEqual([{ path: 'channels.1', message: 'no notification channel "no-such-channel" in this organization' }]);
    const read = await daemon.request('GET', '/orgs/default/checks/shop-api/channels', { token: admin });
    expect(read.body.channels).toHaveLength(Object.keys(channels).length);
  });

  it('sends personal e-mail by each member’s own settings: a member who turned e-mail off gets none', async () => {
    const keen = await addMember(daemon, 'keen@example.com', 'user');
    const quiet = await addMember(daemon, 'quiet@example.com', 'user');
    await daemon.deps.db.kysely.updateTable('users').set({ email_verified: 1 }).where('uid', 'in', [keen.uid, quiet.uid]).execute();
    expect((await daemon.request('PUT', '/auth/me/notification-settings?org=default', { token: quiet.token, body: { email: false } })).status).toBe(200);
    expect(
      (await daemon.request('PUT', '/auth/me/notification-settings?org=default', { token: keen.token, body: { events: ['incident.opened'] } })).status,
    ).toBe(200);
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Personal mail' } });
    await daemon.request('POST', `/orgs/default/incidents/${opened.body.uid}/resolve`, { token: admin });
    // Registration sent each a confirmation mail; only notifications count here.
    const notices = (address: string) => smtp.mails.filter((m) => m.to.includes(address) && m.subject.startsWith('[svc] '));
    await until('the admin’s two mails', () =>
      notices('admin@svc.local').some((m) => m.subject.includes('Incident resolved: Personal mail')) ? true : undefined,
    );
    // A sentinel incident opened after the resolve: once keen has its mail, a mail of the resolve would have come first.
    await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Sentinel' } });
    await until('keen’s sentinel mail', () => (notices('keen@example.com').some((m) => m.subject.includes('Incident opened: Sentinel')) ? true : undefined));
    expect(notices('keen@example.com').map((m) => m.subject)).toEqual(['[svc] Incident opened: Personal mail', '[svc] Incident opened: Sentinel']);
    expect(notices('quiet@example.com')).toHaveLength(0);
  });

  it('sends a check that chose no channel to the default channels only, and a receiver that was down gets the message once it is back', async () => {
    const port = await freePort();
    const created = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'late receiver', type: 'webhook', config: { url: `http://127.0.0.1:${port}/late` }, default: true },
    });
    expect(created.body.default).toBe(true);
    expect(
      (await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'Plain', type: 'http', target: 'https://plain.example.com' } }))
        .status,
    ).toBe(201);
    const before = https.requests.length;
    await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: 'Down receiver', checkSlug: 'plain' } });

    const failed = await until('a failed attempt', async () => {
      const log = await daemon.request('GET', `/orgs/default/notification-channels/${created.body.uid}/deliveries`, { token: admin });
      // The attempt counts from the lease; wait until its failure is recorded.
      return log.body.items[0]?.status === 'pending' && log.body.items[0]?.error ? log.body.items[0] : undefined;
    });
    expect(failed.error).toMatch(/^cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED$/);
    expect(failed.nextAttemptAt).toBe('2026-05-01T09:02:10.000Z');

    const late = await startFakeReceivers({ port });
    try {
      clock.advance(11_000);
      const arrived = await late.waitFor('/late', 1);
      expect(arrived[0].json.check.slug).toBe('plain');
      const log = await daemon.request('GET', `/orgs/default/notification-channels/${created.body.uid}/deliveries`, { token: admin });
      expect(log.body.items[0]).toMatchObject({ status: 'sent', attempts: 2, responseCode: 200 });
    } finally {
      await late.close();
    }
    expect(https.requests.length).toBe(before);
  });

  it('summarises a flapping check instead of sending every open and resolve', async () => {
    const seen = (await daemon.request('GET', `/orgs/default/notification-channels/${channels.webhook}/deliveries?limit=200`, { token: admin })).body.items
      .length;
    for (let i = 0; i < 6; i++) {
      clock.advance(60_000);
      const opened = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: `Flap ${i}`, checkSlug: 'shop-api' } });
      await daemon.request('POST', `/orgs/default/incidents/${opened.body.uid}/resolve`, { token: admin });
    }
    const log = (await daemon.request('GET', `/orgs/default/notification-channels/${channels.webhook}/deliveries?limit=200`, { token: admin })).body.items;
    const fresh = log.slice(0, log.length - seen).map((d: { event: string }) => d.event);
    // Incidents 1 and 2 of the window (the first one was the earlier test's) go out one by one;
    // from the 4th in the hour there is one summary.
    expect(fresh.filter((e: string) => e === 'check.flapping')).toHaveLength(1);
    expect(fresh.length).toBeLessThan(8);
  });
});
