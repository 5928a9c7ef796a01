import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../daemon/clock.js';
import type { Runner } from '../../daemon/runner/runner.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';
import { testRunner } from '../support/runner.js';
import { openEvents, type SseClient } from '../support/sse.js';

// The events stream reads the stored rows, so a state change made by a runner or a request on
// one daemon reaches a client of another daemon sharing the database.
describe.each(DATABASE_KINDS)('organization events [%s]', (kind) => {
  const clock = manualClock(new Date(Date.now() - 60_000));
  let first: TestDaemon;
  let second: TestDaemon;
  let admin: string;
  let runner: Runner;
  let target: Server;
  const open: SseClient[] = [];
  const events = async (token: string, query = '', headers: Record<string, string> = {}) => {
    const client = await openEvents(`${first.url}/api/v1/orgs/default/events${query}`, token, headers);
    open.push(client);
    return client;
  };
  const pause = async (slug: string, enabled: boolean) => {
    clock.advance(1000);
    expect((await second.request('PATCH', `/orgs/default/checks/${slug}`, { token: admin, body: { enabled } })).status).toBe(200);
  };

  beforeAll(async () => {
    target = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    first = await startTestDaemon(kind, { clock, env: { SVC_EVENTS_MAX_STREAMS_PER_MEMBER: '3' } });
    second = await startTestDaemon(kind, { clock, database: { ...first.database, drop: async () => {} } });
    admin = await first.adminToken();
    runner = testRunner(second, clock);
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    for (const name of ['Shop', 'Blog']) {
      const created = await first.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name, type: 'http', intervalSeconds: 30, target: url, thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 2000 } },
      });
      expect(created.status).toBe(201);
    }
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  let downId: string;

  it('a check going down on another daemon arrives within 2 s as check.state and incident.opened', async () => {
    const stream = await events(admin);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    clock.advance(30_000);
    await runner.tick();
    const down = await stream.next((event) => event.event === 'check.state' && event.data.slug === 'shop', 2000);
    expect(down.data).toMatchObject({ slug: 'shop', state: 'down', from: 'pending', message: expect.any(String) });
    expect(down.id).toMatch(/^[0-9a-z]{26}$/);
    downId = down.id!;
    const opened = await stream.next((event) => event.event === 'incident.opened' && event.data.checkSlug === 'shop', 2000);
    expect(opened.data).toMatchObject({ status: 'open', title: 'Shop is down' });
    expect(opened.id).toMatch(/^incident:/);
  });

  it('Last-Event-ID replays what was missed from the stored rows, and an unknown one gets a reset', async () => {
    await pause('shop', false);
    const stream = await events(admin, '', { 'last-event-id': downId });
    const replayed: string[] = [];
    for (;;) {
      const event = await stream.next();
      replayed.push(`${event.event} ${event.data.slug ?? event.data.checkSlug}${event.event === 'check.state' ? ` ${event.data.state}` : ''}`);
      if (event.event === 'incident.resolved') break;
    }
    expect(replayed).toContain('incident.opened shop');
    expect(replayed).toContain('check.state shop paused');
    expect(replayed).not.toContain('check.state shop down');
    stream.close();

    const lost = await events(admin, '', { 'last-event-id': 'incident:00000000000000000000000000:opened' });
    expect((await lost.next()).event).toBe('reset');
  });

  it('?checks= keeps the events of those checks only; an unknown slug is 404', async () => {
    const stream = await events(admin, '?checks=blog');
    await pause('shop', true);
    await pause('blog', false);
    // The sentinel: the event of blog comes after that of shop, and shop's never came.
    const first = await stream.next();
    expect(first.data).toMatchObject({ slug: 'blog', state: 'paused' });
    expect((await openEvents(`${second.url}/api/v1/orgs/default/events?checks=nope`, admin)).status).toBe(404);
  });

  it('a viewer token reads the stream; a non-member gets 404; a member past the bound gets 429', async () => {
    const viewer = await addMember(first, 'events-viewer@example.com', 'viewer');
    const minted = await first.request('POST', '/auth/tokens', { token: viewer.token, body: { name: 'watch', org: 'default', scopes: ['api:read'] } });
    expect(minted.status).toBe(201);
    const stream = await events(minted.body.token);
    expect(stream.status).toBe(200);
    await pause('blog', true);
    expect((await stream.next((event) => event.data.slug === 'blog', 2000)).data.state).toBe('pending');

    const stranger = await first.register('events-stranger@example.com');
    expect((await events(stranger.token)).status).toBe(404);

    const more = [await events(viewer.token), await events(viewer.token)];
    expect(more.map((client) => client.status)).toEqual([200, 200]);
    const refused = await events(viewer.token);
    expect(refused.status).toBe(429);
    // A closed stream frees its place.
    more[0].close();
    await expect
      .poll(async () => {
        const again = await events(viewer.token);
        again.close();
        return again.status;
      })
      .toBe(200);
  });

  it('?results= adds a check.result for each run of those checks, without an id, and none of the others', async () => {
    const stream = await events(admin, '?results=blog');
    expect(stream.status).toBe(200);
    for (let run = 0; run < 2; run++) {
      clock.advance(30_000);
      await runner.tick();
      const result = await stream.next((event) => event.event === 'check.result', 2000);
      expect(result.data).toMatchObject({ slug: 'blog', status: 'down', latencyMs: expect.any(Number), message: expect.any(String) });
      expect(Date.parse(result.data.at)).toBeGreaterThan(0);
      expect(result.id).toBeUndefined();
    }
    // Only blog is followed run by run; shop's state changes still come, its runs do not.
    await pause('shop', false);
    const paused = await stream.next((event) => event.event === 'check.result' || (event.event === 'check.state' && event.data.slug === 'shop'), 2000);
    expect(paused).toMatchObject({ event: 'check.state', data: { slug: 'shop', state: 'paused' } });

    expect((await openEvents(`${first.url}/api/v1/orgs/default/events?results=nope`, admin)).status).toBe(404);
    const tooMany = Array.from({ length: 501 }, (_, i) => `c${i}`).join(',');
    expect((await openEvents(`${first.url}/api/v1/orgs/default/events?results=${tooMany}`, admin)).status).toBe(400);
    expect((await openEvents(`${first.url}/api/v1/orgs/default/events?results=`, admin)).status).toBe(400);
  });

  it('a maintenance window made on another daemon starts and ends as maintenance.started and .ended, and replays', async () => {
    const stream = await events(admin);
    const startsAt = new Date(clock.now().getTime() + 10_000).toISOString();
    const endsAt = new Date(clock.now().getTime() + 40_000).toISOString();
    const created = await second.request('POST', '/orgs/default/maintenance-windows', {
      token: admin,
      body: { title: 'Database upgrade', startsAt, endsAt, labels: { tier: 'none' } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    clock.advance(15_000);
    const started = await stream.next((event) => event.event.startsWith('maintenance.'), 2000);
    expect(started).toMatchObject({ event: 'maintenance.started', data: { uid: created.body.uid, title: 'Database upgrade', startsAt, endsAt } });
    expect(started.id).toMatch(/^maintenance:/);
    clock.advance(30_000);
    const ended = await stream.next((event) => event.event.startsWith('maintenance.'), 2000);
    expect(ended).toMatchObject({ event: 'maintenance.ended', data: { uid: created.body.uid } });
    // A client that saw the start gets the end again from the window's schedule.
    const again = await events(admin, '', { 'last-event-id': started.id! });
    expect(await again.next((event) => event.event.startsWith('maintenance.'), 2000)).toMatchObject({ event: 'maintenance.ended', id: ended.id });
    expect((await second.request('DELETE', `/orgs/default/maintenance-windows/${created.body.uid}`, { token: admin })).status).toBe(204);
  });

  it('draining the daemon ends its open streams, so their clients reconnect elsewhere', async () => {
    // The streams of the tests before are closed by their clients; the daemon notices soon.
    let stream!: SseClient;
    await expect
      .poll(async () => {
        stream = await events(admin);
        return stream.status;
      })
      .toBe(200);
    const closing = first.close();
    await expect(stream.next()).rejects.toThrow('the stream ended');
    await closing;
  });
});
