import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import type { TestDaemon } from '../../support/daemon.js';
import { startEngineSuite, type EngineSuite } from '../../support/engine-suite.js';

// Pausing or deleting a check that is down resolves its incident at once, saying why, and
// notifies it: nothing else would ever resolve it. Pausing shows in the state history at once.
describe.each(DATABASE_KINDS)('pausing and deleting a check end its incident [%s]', (kind) => {
  let suite: EngineSuite;
  let daemon: TestDaemon;
  let admin: string;
  const nextRun = () => suite.nextRun();

  beforeAll(async () => {
    suite = await startEngineSuite(kind);
    ({ daemon, admin } = suite);
    suite.status = 503;
    for (const name of ['Shop', 'Blog']) await suite.createCheck(name);
    await nextRun();
    await nextRun();
    const opened = await suite.receiver.waitFor('/hook', 2);
    expect(opened.map((message) => message.json.event)).toEqual(['incident.opened', 'incident.opened']);
  });
  afterAll(() => suite?.stop());

  const incidentOf = async (slug: string) => {
    const list = await daemon.request('GET', '/orgs/default/incidents', { token: admin });
    return (
      list.body.items as { checkSlug: string; status: string; resolution: string | null; resolvedBySystem: boolean; openingMessage: string | null }[]
    ).find((incident) => incident.checkSlug === slug)!;
  };

  it('pausing resolves the incident as check-paused, notifies it, and shows paused at once', async () => {
    const paused = await daemon.request('PATCH', '/orgs/default/checks/shop', { token: admin, body: { enabled: false } });
    expect(paused.status).toBe(200);
    expect(await incidentOf('shop')).toMatchObject({
      status: 'resolved',
      resolvedBySystem: true,
      resolution: 'check-paused',
      openingMessage: 'expected status 200-299, got 503',
    });
    const [, , resolved] = await suite.receiver.waitFor('/hook', 3);
    expect(resolved.json).toMatchObject({
      event: 'incident.resolved',
      check: { slug: 'shop' },
      lastResultMessage: 'the check was paused, so the incident was resolved',
    });
    const changes = await daemon.request('GET', '/orgs/default/state-changes', { token: admin });
    expect(changes.body.items[0]).toMatchObject({ checkSlug: 'shop', from: 'down', to: 'paused' });
    // A run while paused changes nothing and opens nothing.
    await nextRun();
    expect(await incidentOf('shop')).toMatchObject({ status: 'resolved' });
  });

  it('resuming starts over as pending at once, and a failing check opens a new incident', async () => {
    expect((await daemon.request('PATCH', '/orgs/default/checks/shop', { token: admin, body: { enabled: true } })).status).toBe(200);
    const check = await daemon.request('GET', '/orgs/default/checks/shop', { token: admin });
    expect(check.body.state).toBe('pending');
    const changes = await daemon.request('GET', '/orgs/default/state-changes', { token: admin });
    expect(changes.body.items[0]).toMatchObject({ checkSlug: 'shop', from: 'paused', to: 'pending' });
    await nextRun();
    const messages = await suite.receiver.waitFor('/hook', 4);
    expect(messages[3].json).toMatchObject({ event: 'incident.opened', check: { slug: 'shop' } });
  });

  it('deleting resolves the incident as check-deleted and notifies it', async () => {
    expect((await daemon.request('DELETE', '/orgs/default/checks/blog', { token: admin })).status).toBe(204);
    expect(await incidentOf('blog')).toMatchObject({ status: 'resolved', resolvedBySystem: true, resolution: 'check-deleted' });
    const messages = await suite.receiver.waitFor('/hook', 5);
    expect(messages[4].json).toMatchObject({
      event: 'incident.resolved',
      check: { slug: 'blog' },
      lastResultMessage: 'the check was deleted, so the incident was resolved',
    });
  });
});
