import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, docScreenshotsDir, fitsWidth, launchBrowser, type TestBrowser } from '../../support/browser.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { addMember } from '../../support/members.js';
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '../../support/smtp.js';

/** The header section of a mail, its folded lines unfolded. */
function mailHeader(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim();
}

/** The first link of the mail's text under /status/. */
const linkIn = (text: string, kind: 'confirm' | 'unsubscribe') => new RegExp(`https?://\\S+/status/\\S+/${kind}/[A-Za-z0-9_-]+`).exec(text)?.[0];

const ADDRESSES = ['reader.one@example.com', 'Reader.Two@Example.com', 'limited@example.com'];

describe.each(DATABASE_KINDS)('status-page updates and subscribers [%s]', (kind) => {
  let daemon: TestDaemon;
  let smtp: TestSmtp;
  let admin: string;
  let viewer: string;

  /** A GET or POST of a path of a link, on the daemon (links name SVC_BASE_URL). */
  const follow = (link: string, init: RequestInit = {}) => fetch(`${daemon.url}${new URL(link).pathname}`, { redirect: 'manual', ...init });
  const publicJson = async () => (await fetch(`${daemon.url}/api/v1/public/status/default/status`)).json();
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  async function nextMailTo(address: string, count: number, timeoutMs = 8000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    while (mailsTo(address).length < count) {
      if (Date.now() > deadline) throw new Error(`mail ${count} to ${address} did not arrive`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return mailsTo(address)[count - 1];
  }
  const subscribe = (email: string) => daemon.request('POST', '/public/status/default/status/subscriptions', { body: { email } });
  async function subscribeAndConfirm(email: string): Promise<void> {
    const before = mailsTo(email).length;
    expect((await subscribe(email)).status).toBe(202);
    const confirmation = await nextMailTo(email, before + 1);
    expect(confirmation.subject).toBe('Confirm your subscription to Example status');
    const link = linkIn(confirmation.text, 'confirm')!;
    // The link shows a button; only its POST confirms (mail scanners follow links).
    const shown = await follow(link);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain('Confirm subscription');
    expect(html).toContain(`action="${new URL(link).pathname}"`);
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers', { token: admin })).body.confirmed).toBeGreaterThanOrEqual(0);
    const confirmed = await follow(link, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Subscribed');
    // Used once.
    expect((await follow(link, { method: 'POST' })).status).toBe(404);
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    daemon = await startTestDaemon(kind, { env: { SVC_SMTP_URL: smtp.url, SVC_MAIL_FROM: 'status@svc.local', SVC_BASE_URL: 'https://status.example.org' } });
    admin = await daemon.adminToken();
    viewer = (await addMember(daemon, 'update-viewer@example.com', 'viewer')).token;
    for (const name of ['Website', 'Search', 'Hidden']) {
      const created = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name, type: 'http', target: 'http://127.0.0.1:9/x' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const page = await daemon.request('POST', '/orgs/default/status-pages', {
      token: admin,
      body: { slug: 'status', title: 'Example status', public: true, checks: ['website', 'search'] },
    });
    expect(page.status).toBe(201);
  });
  afterAll(async () => {
    await daemon?.stop();
    await smtp?.close();
  });

  it('posts, lists, reads, changes and deletes updates; refuses bad ones and writes nothing of them', async () => {
    const bad = [
      { title: 'x', body: 'y', state: 'broken' },
      { title: '', body: 'y', state: 'investigating' },
      { title: 'x', body: 'y', state: 'investigating', checks: ['hidden'] },
      { title: 'x', body: 'y', state: 'investigating', checks: ['nope'] },
      { title: 'x', body: 'y\u0000', state: 'investigating' },
      { title: 'x', body: 'y', state: 'investigating', extra: 1 },
    ];
    for (const body of bad) {
      const refused = await daemon.request('POST', '/orgs/default/status-pages/status/updates', { token: admin, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    }
    const refusedCheck = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: { title: 'x', body: 'y', state: 'investigating', checks: ['hidden'] },
    });
    expect(refusedCheck.body.error.details.issues[0]).toMatchObject({ path: 'checks.0' });
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/updates', { token: admin })).body.items).toEqual([]);
    expect((await daemon.request('POST', '/orgs/default/status-pages/status/updates', { token: viewer, body: bad[0] })).status).toBe(403);
    expect(
      (await daemon.request('POST', '/orgs/default/status-pages/nope/updates', { token: admin, body: { title: 'x', body: 'y', state: 'monitoring' } })).status,
    ).toBe(404);

    const posted = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: { title: 'Slow searches', body: 'We are looking into **slow** searches.', state: 'investigating', checks: ['search'] },
    });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ title: 'Slow searches', state: 'investigating', checks: ['search'], resolvedAt: null });
    const uid = posted.body.uid;
    expect((await daemon.request('GET', `/orgs/default/status-pages/status/updates/${uid}`, { token: viewer })).body).toEqual(posted.body);
    const changed = await daemon.request('PATCH', `/orgs/default/status-pages/status/updates/${uid}`, { token: admin, body: { state: 'identified' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ state: 'identified', title: 'Slow searches', checks: ['search'] });
    expect((await daemon.request('PATCH', `/orgs/default/status-pages/status/updates/${uid}`, { token: admin, body: {} })).status).toBe(400);
    expect((await daemon.request('PATCH', '/orgs/default/status-pages/status/updates/not-a-uid', { token: admin, body: { state: 'resolved' } })).status).toBe(
      404,
    );

    const other = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: { title: 'Short-lived', body: 'gone soon', state: 'monitoring' },
    });
    const listed = await daemon.request('GET', '/orgs/default/status-pages/status/updates?limit=1', { token: viewer });
    expect(listed.body.items.map((u: { uid: string }) => u.uid)).toEqual([other.body.uid]);
    expect(listed.body.nextCursor).toBe(other.body.uid);
    expect((await daemon.request('DELETE', `/orgs/default/status-pages/status/updates/${other.body.uid}`, { token: viewer })).status).toBe(403);
    expect((await daemon.request('DELETE', `/orgs/default/status-pages/status/updates/${other.body.uid}`, { token: admin })).status).toBe(204);
    expect((await daemon.request('GET', `/orgs/default/status-pages/status/updates/${other.body.uid}`, { token: admin })).status).toBe(404);
  });

  it('answers 404 NOT_FOUND naming the slug on every route under a status page the organization has none of', async () => {
    const uid = '0000000000000000000000000a';
    const calls: [string, string, object?][] = [
      ['GET', '/updates'],
      ['POST', '/updates', { title: 'x', body: 'y', state: 'monitoring' }],
      ['GET', `/updates/${uid}`],
      ['PATCH', `/updates/${uid}`, { state: 'resolved' }],
      ['DELETE', `/updates/${uid}`],
      ['GET', '/subscribers'],
      ['GET', '/subscribers/export'],
      ['DELETE', '/subscribers/reader.one@example.com'],
      ['GET', '/preview'],
    ];
    for (const [method, tail, body] of calls) {
      const res = await daemon.request(method, `/orgs/default/status-pages/nope${tail}`, { token: admin, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${tail}`).toBe(404);
      expect(res.body.error, `${method} ${tail}`).toMatchObject({ code: 'NOT_FOUND', message: 'No status page with slug "nope" in this organization.' });
    }
  });

  it('shows open updates on top and past ones below, in the JSON (with the checks they name) and the Atom feed, escaped', async () => {
    const hostile = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: {
        title: 'Website <script>alert(1)</script>',
        body: 'Fix under way.\n\n- see [notes](https://example.org/notes)\n- [bad](javascript:alert(1)) <img src=x onerror=alert(1)>',
        state: 'monitoring',
        checks: ['website'],
      },
    });
    expect(hostile.status).toBe(201);
    const open = (await daemon.request('GET', '/orgs/default/status-pages/status/updates', { token: admin })).body.items.find(
      (u: { title: string }) => u.title === 'Slow searches',
    );
    await daemon.request('PATCH', `/orgs/default/status-pages/status/updates/${open.uid}`, { token: admin, body: { state: 'resolved' } });

    const json = await publicJson();
    expect(json.updates.map((u: { title: string; state: string }) => [u.title, u.state])).toEqual([
      ['Website <script>alert(1)</script>', 'monitoring'],
      ['Slow searches', 'resolved'],
    ]);
    expect(json.updates[0].checks).toEqual(['Website']);
    expect(json.updates[0].bodyHtml).toContain('<a href="https://example.org/notes" rel="nofollow noopener noreferrer">notes</a>');
    expect(json.updates[0].bodyHtml).not.toMatch(/<img|href="javascript/);
    expect(json.updates[1].resolvedAt).not.toBeNull();
    expect(json.checks.map((c: { name: string; updateState: string | null }) => [c.name, c.updateState])).toEqual([
      ['Website', 'monitoring'],
      ['Search', null],
    ]);

    const html = await (await fetch(`${daemon.url}/status/default/status`)).text();
    const current = html.indexOf('Current updates');
    const services = html.indexOf('Services');
    const past = html.indexOf('Past updates');
    expect(current).toBeGreaterThan(0);
    expect(current).toBeLessThan(services);
    expect(past).toBeGreaterThan(services);
    expect(html.indexOf('Slow searches')).toBeGreaterThan(past);
    expect(html).toContain('Website &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script|<img|javascript:alert\(1\)"/);
    expect(html).toContain('<span class="u-state u-monitoring">Monitoring</span>');
    expect(html).toContain('action="/status/default/status/subscribe"');

    const feed = await (await fetch(`${daemon.url}/status/default/status/feed.atom`)).text();
    const doc = new DOMParser().parseFromString(feed, 'application/xml');
    const titles = Array.from(doc.getElementsByTagName('entry')).map((entry) => entry.getElementsByTagName('title')[0].textContent);
    expect(titles).toContain('Monitoring: Website <script>alert(1)</script>');
    expect(titles).toContain('Resolved: Slow searches');
    const content = Array.from(doc.getElementsByTagName('content')).map((node) => node.textContent ?? '');
    expect(content.some((text) => text.includes('<a href="https://example.org/notes"'))).toBe(true);
    expect(content.join('')).not.toMatch(/<img|<script/);
  });

  it('runs the whole subscription cycle over SMTP: confirm by link, an update mail, unsubscribe by the link and by the one-click POST', async () => {
    const [one, two] = ADDRESSES;
    const first = await subscribe(one);
    const again = await subscribe(one);
    expect(first.status).toBe(202);
    expect(again.body).toEqual(first.body);
    await subscribeAndConfirm(two);
    // The first address got one confirmation (the second request found it still queued or sent), and confirms now.
    await nextMailTo(one, 1);
    const link = linkIn(mailsTo(one)[0].text, 'confirm')!;
    expect((await follow(link, { method: 'POST' })).status).toBe(200);
    // Subscribed already: the same answer, and no mail.
    const confirmedAgain = await subscribe(two);
    expect(confirmedAgain.status).toBe(202);
    expect(confirmedAgain.body).toEqual(first.body);
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers', { token: viewer })).body).toEqual({ confirmed: 2, unconfirmed: 0 });

    const posted = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: { title: 'Mail delays', body: 'Mail is *late*.', state: 'investigating', checks: ['website'] },
    });
    expect(posted.status).toBe(201);
    const newsOne = await nextMailTo(one, 2);
    const newsTwo = await nextMailTo(two, 2);
    expect(newsOne.subject).toBe('[Example status] Investigating: Mail delays');
    expect(newsOne.text).toContain('Mail is *late*.');
    expect(newsOne.text).toContain('Affects: Website');
    expect(newsOne.text).toContain('https://status.example.org/status/default/status');
    expect(mailHeader(newsOne, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const headerLink = /^<(https:\/\/[^>]+)>$/.exec(mailHeader(newsTwo, 'List-Unsubscribe') ?? '')?.[1];
    expect(headerLink).toMatch(/^https:\/\/status\.example\.org\/status\/default\/status\/unsubscribe\//);

    // One: the link in the text shows a button; its POST unsubscribes.
    const textLink = linkIn(newsOne.text, 'unsubscribe')!;
    const shown = await follow(textLink);
    expect(shown.status).toBe(200);
    const page = await shown.text();
    expect(page).toContain('<button type="submit">Unsubscribe</button>');
    expect(page).not.toContain(one);
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers', { token: viewer })).body.confirmed).toBe(2);
    expect((await follow(textLink, { method: 'POST', body: new URLSearchParams() })).status).toBe(200);
    // Two: the RFC 8058 POST to the header's address unsubscribes at once.
    const oneClick = await follow(headerLink!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await follow(headerLink!)).status).toBe(404);
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers', { token: viewer })).body).toEqual({ confirmed: 0, unconfirmed: 0 });

    // Resolving is news too, but nobody is subscribed any more: the update queues no mail (mail
    // is queued in the update's own transaction, so none can come later).
    const queuedMail = async () => (await daemon.deps.db.kysely.selectFrom('status_page_mail').select('uid').execute()).length;
    const queuedBefore = await queuedMail();
    await daemon.request('PATCH', `/orgs/default/status-pages/status/updates/${posted.body.uid}`, { token: admin, body: { state: 'resolved' } });
    expect(await queuedMail()).toBe(queuedBefore);
    expect(mailsTo(one)).toHaveLength(2);
    expect(mailsTo(two)).toHaveLength(2);
  });

  it('lets the owner export (JSON, CSV) and remove subscribers; viewers see the count only; no address reaches a public answer or the log', async () => {
    await subscribeAndConfirm('export.me@example.com');
    expect((await subscribe('pending@example.com')).status).toBe(202);
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers', { token: viewer })).body).toEqual({ confirmed: 1, unconfirmed: 1 });
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers/export', { token: viewer })).status).toBe(403);

    const json = await daemon.request('GET', '/orgs/default/status-pages/status/subscribers/export', { token: admin });
    expect(json.status).toBe(200);
    expect(json.body.items.map((s: { email: string; confirmedAt: string | null }) => [s.email, s.confirmedAt !== null])).toEqual([
      ['export.me@example.com', true],
      ['pending@example.com', false],
    ]);
    const confirmedOnly = await daemon.request('GET', '/orgs/default/status-pages/status/subscribers/export?confirmed=true', { token: admin });
    expect(confirmedOnly.body.items).toHaveLength(1);
    const csv = await fetch(`${daemon.url}/api/v1/orgs/default/status-pages/status/subscribers/export?format=csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('uid,email,confirmed_at,created_at');
    expect(lines[1]).toContain(',export.me@example.com,');
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers/export?format=xml', { token: admin })).status).toBe(400);

    expect((await daemon.request('DELETE', '/orgs/default/status-pages/status/subscribers/PENDING@example.com', { token: admin })).status).toBe(204);
    expect((await daemon.request('DELETE', `/orgs/default/status-pages/status/subscribers/${json.body.items[0].uid}`, { token: admin })).status).toBe(204);
    expect((await daemon.request('DELETE', `/orgs/default/status-pages/status/subscribers/${json.body.items[0].uid}`, { token: admin })).status).toBe(404);
    expect((await daemon.request('GET', '/orgs/default/status-pages/status/subscribers', { token: viewer })).body).toEqual({ confirmed: 0, unconfirmed: 0 });

    const everyAddress = [...ADDRESSES, 'export.me@example.com', 'pending@example.com'];
    const answers = [
      JSON.stringify(await publicJson()),
      await (await fetch(`${daemon.url}/status/default/status`)).text(),
      await (await fetch(`${daemon.url}/status/default/status/feed.atom`)).text(),
    ];
    for (const address of everyAddress) {
      for (const answer of answers) expect(answer.toLowerCase()).not.toContain(address.toLowerCase());
      expect(daemon.logs.join('\n').toLowerCase(), 'the log holds a subscriber address').not.toContain(address.toLowerCase());
    }
    expect(daemon.logs.length).toBeGreaterThan(0);
  });

  it('rate-limits subscription requests per address, refuses bad addresses and pages that are not public', async () => {
    // The suite's earlier requests all came from this one client, which has its own hourly limit.
    await daemon.deps.db.kysely.deleteFrom('rate_limits').where('key', 'like', 'subscribe:ip:%').execute();
    const address = ADDRESSES[2];
    for (let i = 0; i < 3; i++) expect((await subscribe(address)).status).toBe(202);
    const limited = await subscribe(address.toUpperCase());
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect((await subscribe('not-an-address')).status).toBe(400);
    await daemon.request('POST', '/orgs/default/status-pages', { token: admin, body: { slug: 'private', title: 'Private', public: false } });
    expect((await daemon.request('POST', '/public/status/default/private/subscriptions', { body: { email: 'x@example.com' } })).status).toBe(404);
    // The page's own form (no script) subscribes too.
    const form = await fetch(`${daemon.url}/status/default/status/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=form.reader%40example.com',
    });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('Check your mail');
    expect((await nextMailTo('form.reader@example.com', 1)).subject).toBe('Confirm your subscription to Example status');
  });

  describe.skipIf(browserSkipReason())('in Chromium', () => {
    let browser: TestBrowser;
    // biome-ignore lint/suspicious/noDuplicateTestHooks: these hooks belong to this nested describe, not to the outer one
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    // biome-ignore lint/suspicious/noDuplicateTestHooks: as above
    afterAll(() => browser?.close());

    for (const width of [1280, 375]) {
      it(`shows updates at ${width} px under the page's CSP, without console errors`, async () => {
        const page = await browser.newPage({ width, height: 900 });
        await page.goto(`${daemon.url}/status/default/status`);
        expect(await fitsWidth(page)).toBe(true);
        expect(await page.getByText('Current updates').isVisible()).toBe(true);
        expect(await page.locator('a[href="https://example.org/notes"]').count()).toBe(1);
        if (kind === 'sqlite') await page.screenshot({ path: join(docScreenshotsDir(), `status-page-updates-${width}.png`), fullPage: true });
        expect(browser.problems).toEqual([]);
        await page.close();
      });
    }

    let windowCreated = false;
    for (const width of [1280, 375]) {
      it(`shows an update and a maintenance window under way at ${width} px`, async () => {
        if (!windowCreated) {
          const now = Date.now();
          const created = await daemon.request('POST', '/orgs/default/maintenance-windows', {
            token: admin,
            body: {
              title: 'Search index rebuild',
              description: 'Searches may return partial results.',
              startsAt: new Date(now - 10 * 60_000).toISOString(),
              endsAt: new Date(now + 2 * 3600_000).toISOString(),
              checks: ['search'],
            },
          });
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          windowCreated = true;
        }
        const page = await browser.newPage({ width, height: 900 });
        // A query of its own: the page is cacheable for 30 s, and the browser has the one without the window.
        await page.goto(`${daemon.url}/status/default/status?maintenance`);
        expect(await fitsWidth(page)).toBe(true);
        expect(await page.getByText('Current updates').isVisible()).toBe(true);
        expect(await page.getByText('Search index rebuild').first().isVisible()).toBe(true);
        if (kind === 'sqlite') await page.screenshot({ path: join(docScreenshotsDir(), `status-page-updates-and-maintenance-${width}.png`), fullPage: true });
        expect(browser.problems).toEqual([]);
        await page.close();
      });
    }
  });
});

// Without SVC_SMTP_URL no confirmation could ever arrive: the page offers no subscription, and
// both ways to subscribe say why instead of answering as if a mail were on its way.
describe.each(DATABASE_KINDS)('a server without mail takes no subscriptions [%s]', (kind) => {
  let daemon: TestDaemon;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    const admin = await daemon.adminToken();
    const created = await daemon.request('POST', '/orgs/default/status-pages', {
      token: admin,
      body: { slug: 'status', title: 'Example status', public: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('shows no form, and the endpoint and the form target answer 503 MAIL_OFF, storing no subscriber', async () => {
    const page = await (await fetch(`${daemon.url}/status/default/status`)).text();
    expect(page).toContain('Example status');
    expect(page).not.toContain('subscribe-email');
    const api = await daemon.request('POST', '/public/status/default/status/subscriptions', { body: { email: 'reader@example.com' } });
    expect(api.status).toBe(503);
    expect(api.body.error).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'MAIL_OFF' } });
    expect(api.body.error.message).toMatch(/no SMTP server is configured/);
    const form = await fetch(`${daemon.url}/status/default/status/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=reader%40example.com',
    });
    expect(form.status).toBe(503);
    expect(await form.text()).toContain('take no subscriptions');
    // A page that is not there is still not there.
    expect((await daemon.request('POST', '/public/status/default/other/subscriptions', { body: { email: 'reader@example.com' } })).status).toBe(404);
    const missing = await fetch(`${daemon.url}/status/default/other/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=reader%40example.com',
    });
    expect(missing.status).toBe(404);
    const stored = await daemon.deps.db.kysely.selectFrom('status_page_subscribers').select('uid').execute();
    expect(stored).toEqual([]);
  });
});
