import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// A public status page shows the maintenance of its checks, under way and scheduled, in its HTML,
// its JSON (`maintenance`) and its Atom feed, escaped through daemon/markup.ts; a window of a
// check the page does not list stays off it.

describe.each(DATABASE_KINDS)('maintenance on public status pages [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-20T12:00:00Z'));
  let daemon: TestDaemon;

  const get = (path: string) => fetch(`${daemon.url}${path}`);

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    const admin = await daemon.adminToken();
    const post = async (path: string, body: unknown) => {
      const res = await daemon.request('POST', path, { token: admin, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await post('/orgs/default/checks', { name: 'Website', type: 'http', target: 'https://example.com', labels: { tier: 'web' } });
    await post('/orgs/default/checks', { name: 'Private db', type: 'http', target: 'https://example.org' });
    await post('/orgs/default/status-pages', { slug: 'status', title: 'Example', public: true, checks: ['website'] });
    await post('/orgs/default/maintenance-windows', {
      title: 'CDN <switch> & "cache"',
      description: '<script>alert(1)</script>',
      startsAt: '2026-03-20T11:00:00Z',
      endsAt: '2026-03-20T13:00:00Z',
      checks: ['website'],
    });
    await post('/orgs/default/maintenance-windows', {
      title: 'Sunday backups',
      startsAt: '2026-03-22T02:00:00+01:00',
      endsAt: '2026-03-22T03:00:00+01:00',
      recurrence: 'FREQ=WEEKLY;BYDAY=SU',
      timezone: 'Europe/Berlin',
      labels: { tier: 'web' },
    });
    await post('/orgs/default/maintenance-windows', {
      title: 'Hidden db work',
      startsAt: '2026-03-21T00:00:00Z',
      endsAt: '2026-03-21T01:00:00Z',
      checks: ['private-db'],
    });
    await post('/orgs/default/maintenance-windows', { title: 'Long over', startsAt: '2026-03-01T00:00:00Z', endsAt: '2026-03-01T01:00:00Z', allChecks: true });
  });
  afterAll(() => daemon.stop());

  it('answers the windows in the JSON, under way first', async () => {
    const body = await (await get('/api/v1/public/status/default/status')).json();
    expect(body.maintenance).toEqual([
      {
        uid: expect.any(String),
        title: 'CDN <switch> & "cache"',
        description: '<script>alert(1)</script>',
        startsAt: '2026-03-20T11:00:00.000Z',
        endsAt: '2026-03-20T13:00:00.000Z',
        active: true,
        checks: ['Website'],
        updatedAt: expect.any(String),
      },
      expect.objectContaining({
        title: 'Sunday backups',
        startsAt: '2026-03-22T01:00:00.000Z',
        endsAt: '2026-03-22T02:00:00.000Z',
        active: false,
        checks: ['Website'],
      }),
    ]);
    expect(JSON.stringify(body)).not.toContain('Hidden db work');
  });

  it('shows them on the page, escaped', async () => {
    const html = await (await get('/status/default/status')).text();
    expect(html).toContain('<h2 id="maintenance-title">Maintenance</h2>');
    expect(html).toContain('<strong>CDN &lt;switch&gt; &amp; &quot;cache&quot;</strong> <span class="muted">(in progress)</span>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<strong>Sunday backups</strong> <span class="muted">(scheduled)</span>');
    expect(html).not.toContain('Hidden db work');
    expect(html).not.toContain('Long over');
  });

  it('lists them in the Atom feed, one entry per occurrence', async () => {
    const xml = await (await get('/status/default/status/feed.atom')).text();
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const entries = Array.from(doc.getElementsByTagName('entry'));
    const titles = entries.map((entry) => entry.getElementsByTagName('title')[0].textContent);
    expect(titles).toEqual(['Maintenance: CDN <switch> & "cache" (in progress)', 'Maintenance: Sunday backups (scheduled)']);
    const ids = entries.map((entry) => entry.getElementsByTagName('id')[0].textContent);
    expect(ids[1]).toMatch(/^tag:[^,]+,2026-03-22:maintenance\/\w+\/2026-03-22T01:00:00\.000Z$/);
    expect(entries[0].getElementsByTagName('summary')[0].textContent).toContain('<script>alert(1)</script>');
  });

  it('moves on to the next occurrence once one is over', async () => {
    clock.set(new Date('2026-03-22T02:30:00Z'));
    const body = await (await get('/api/v1/public/status/default/status')).json();
    // 29 March 02:00 does not exist in Berlin; the next is 5 April 02:00 CEST.
    expect(body.maintenance.map((w: { title: string; startsAt: string }) => [w.title, w.startsAt])).toEqual([['Sunday backups', '2026-04-05T00:00:00.000Z']]);
  });
});
