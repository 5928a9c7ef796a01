import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';

describe.each(DATABASE_KINDS)('incidents [%s]', (kind) => {
  const clock = manualClock(new Date('2026-03-01T10:00:00Z'));
  let daemon: TestDaemon;
  let admin: string;
  let user: { token: string; uid: string };
  let viewer: { token: string; uid: string };
  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { clock });
    admin = await daemon.adminToken();
    user = await addMember(daemon, 'incident-user@example.com', 'user');
    viewer = await addMember(daemon, 'incident-viewer@example.com', 'viewer');
    const check = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: 'Mail relay', type: 'smtp', target: 'mail.example.com:25' },
    });
    expect(check.status).toBe(201);
  });
  afterAll(() => daemon.stop());

  it('opens a manual incident, then records who acknowledged and resolved it and when', async () => {
    const opened = await daemon.request('POST', '/orgs/default/incidents', { token: user.token, body: { title: '  Mail is slow  ', checkSlug: 'mail-relay' } });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      uid: expect.stringMatching(/^[0-9a-z]{26}$/),
      title: 'Mail is slow',
      status: 'open',
      checkSlug: 'mail-relay',
      openedBy: { uid: user.uid, email: 'incident-user@example.com' },
      createdAt: '2026-03-01T10:00:00.000Z',
      acknowledgedAt: null,
      acknowledgedBy: null,
      resolvedAt: null,
      resolvedBy: null,
    });
    const uid = opened.body.uid;

    clock.advance(60_000);
    const acked = await daemon.request('POST', `/orgs/default/incidents/${uid}/acknowledge`, { token: admin });
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ status: 'acknowledged', acknowledgedAt: '2026-03-01T10:01:00.000Z', acknowledgedBy: { email: 'admin@svc.local' } });

    clock.advance(60_000);
    const again = await daemon.request('POST', `/orgs/default/incidents/${uid}/acknowledge`, { token: user.token });
    expect(again.body).toMatchObject({ status: 'acknowledged', acknowledgedAt: '2026-03-01T10:01:00.000Z', acknowledgedBy: { email: 'admin@svc.local' } });

    const resolved = await daemon.request('POST', `/orgs/default/incidents/${uid}/resolve`, { token: user.token });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedAt: '2026-03-01T10:02:00.000Z', resolvedBy: { uid: user.uid } });
    const read = await daemon.request('GET', `/orgs/default/incidents/${uid}`, { token: viewer.token });
    expect(read.body).toEqual(resolved.body);
  });

  it('resolves straight from open, and refuses to acknowledge what was resolved unacknowledged', async () => {
    const { body } = await daemon.request('POST', '/orgs/default/incidents', { token: user.token, body: { title: 'Blip' } });
    expect(body.checkSlug).toBeNull();
    const resolved = await daemon.request('POST', `/orgs/default/incidents/${body.uid}/resolve`, { token: user.token });
    expect(resolved.body.status).toBe('resolved');
    const late = await daemon.request('POST', `/orgs/default/incidents/${body.uid}/acknowledge`, { token: user.token });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'INCIDENT_RESOLVED' } });
    expect((await daemon.request('POST', `/orgs/default/incidents/${body.uid}/resolve`, { token: user.token })).body).toEqual(resolved.body);
  });

  it('lists newest first with a status filter and a cursor, and validates input', async () => {
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      await daemon.request('POST', '/orgs/default/incidents', { token: user.token, body: { title: `Open ${i}` } });
    }
    const open = await daemon.request('GET', '/orgs/default/incidents?status=open&limit=2', { token: viewer.token });
    expect(open.status).toBe(200);
    expect(open.body.items.map((i: { title: string }) => i.title)).toEqual(['Open 2', 'Open 1']);
    const rest = await daemon.request('GET', `/orgs/default/incidents?status=open&limit=2&cursor=${open.body.nextCursor}`, { token: viewer.token });
    expect(rest.body).toMatchObject({ items: [{ title: 'Open 0' }], nextCursor: null });
    const all = await daemon.request('GET', '/orgs/default/incidents', { token: viewer.token });
    expect(all.body.items).toHaveLength(5);

    const bad = await daemon.request('GET', '/orgs/default/incidents?status=closed', { token: viewer.token });
    expect(bad.status).toBe(400);
    const noTitle = await daemon.request('POST', '/orgs/default/incidents', { token: user.token, body: { title: ' ', checkSlug: 'x', extra: 1 } });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['', 'title']);
    const noCheck = await daemon.request('POST', '/orgs/default/incidents', {
      token: user.token,
      body: { title: 'About nothing', checkSlug: 'no-such-check' },
    });
    expect(noCheck.status).toBe(400);
    expect(noCheck.body.error.details.issues).toEqual([{ path: 'checkSlug', message: expect.stringContaining('no-such-check') }]);
    expect((await daemon.request('GET', '/orgs/default/incidents/00000000000000000000000000', { token: viewer.token })).status).toBe(404);
  });

  it('keeps the slug of a deleted check and follows a renamed one', async () => {
    await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'Doomed', type: 'icmp', target: 'doomed.example.com' } });
    const about = await daemon.request('POST', '/orgs/default/incidents', { token: user.token, body: { title: 'Doomed is down', checkSlug: 'doomed' } });
    await daemon.request('PATCH', '/orgs/default/checks/doomed', { token: admin, body: { slug: 'doomed-2' } });
    expect((await daemon.request('GET', `/orgs/default/incidents/${about.body.uid}`, { token: user.token })).body.checkSlug).toBe('doomed-2');
    await daemon.request('DELETE', '/orgs/default/checks/doomed-2', { token: admin });
    expect((await daemon.request('GET', `/orgs/default/incidents/${about.body.uid}`, { token: user.token })).body.checkSlug).toBe('doomed');
  });

  it('lets a viewer read but not open, acknowledge or resolve (403 FORBIDDEN)', async () => {
    const { body } = await daemon.request('POST', '/orgs/default/incidents', { token: user.token, body: { title: 'Viewer test' } });
    for (const [path, payload] of [
      ['/orgs/default/incidents', { title: 'By a viewer' }],
      [`/orgs/default/incidents/${body.uid}/acknowledge`, undefined],
      [`/orgs/default/incidents/${body.uid}/resolve`, undefined],
    ] as const) {
      const res = await daemon.request('POST', path, { token: viewer.token, body: payload });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await daemon.request('GET', `/orgs/default/incidents/${body.uid}`, { token: viewer.token })).body.status).toBe('open');
  });
});
