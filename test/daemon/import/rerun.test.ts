import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { convertPath, kumaWithIntervals as kuma } from './helpers.js';

type Entry = { slug?: string; action: string; changes?: unknown[]; conflicts?: unknown[] };

describe.each(DATABASE_KINDS)('re-running an import [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const convert = async (query: string, raw: Uint8Array) => {
    const res = await daemon.request('POST', convertPath(`source=uptime-kuma&${query}`), { token: admin, raw });
    expect(
      res.status,
      JSON.stringify(res.body).slice(0, 500) +
        daemon.logs
          .filter((l) => l.includes('"level":50'))
          .slice(-2)
          .join('\n'),
    ).toBe(200);
    return res.body;
  };
  const check = async (slug: string) => (await daemon.request('GET', `/orgs/default/checks/${slug}`, { token: admin })).body;
  const patch = async (slug: string, body: unknown) => {
    const res = await daemon.request('PATCH', `/orgs/default/checks/${slug}`, { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const entry = (response: { checks: Entry[] }, slug: string) => response.checks.find((c) => c.slug === slug)!;
  const withDetails = (response: { checks: Entry[] }) => response.checks.filter((c) => c.changes || c.conflicts);

  it('keeps a pause and local edits, changes only what the source changed, and shows a field changed on both sides as a conflict', async () => {
    const first = await convert('', await kuma());
    expect(first.created).toBeGreaterThan(5);

    // Changes made here: a pause, an interval, a secret reference for the dropped NTLM password.
    await patch('core-switch-v3', { enabled: false });
    await patch('replica-set', { intervalSeconds: 120 });
    await patch('intranet-ntlm', { config: { basicAuthUser: 'probe', basicAuthPassword: '{{secrets.INTRANET_PASSWORD}}' } });
    const edited = { pause: await check('core-switch-v3'), interval: await check('replica-set'), secret: await check('intranet-ntlm') };

    // The same source again: nothing to change, in the preview and in the apply.
    const same = await convert('dryRun=true', await kuma());
    expect(same).toMatchObject({ created: 0, updated: 0, unchanged: first.created });
    expect(withDetails(same)).toEqual([]);
    expect(await convert('', await kuma())).toMatchObject({ created: 0, updated: 0, unchanged: first.created });
    expect(await check('core-switch-v3')).toMatchObject({ enabled: false, state: 'paused', updatedAt: edited.pause.updatedAt });
    expect(await check('replica-set')).toMatchObject({ intervalSeconds: 120, updatedAt: edited.interval.updatedAt });
    expect((await check('intranet-ntlm')).config).toMatchObject({ basicAuthUser: 'probe', basicAuthPassword: '{{secrets.INTRANET_PASSWORD}}' });

    // The source changes one check's interval: the preview shows that field of that check only.
    const moved = await convert('dryRun=true', await kuma({ timeServer: 300 }));
    expect(moved).toMatchObject({ created: 0, updated: 1 });
    expect(entry(moved, 'time-server')).toMatchObject({ action: 'update', changes: [{ field: 'intervalSeconds', from: 60, to: 300 }] });
    expect(entry(moved, 'time-server').conflicts).toBeUndefined();
    expect(withDetails(moved).map((c) => c.slug)).toEqual(['time-server']);
    const applied = await convert(`expect=${moved.digest}`, await kuma({ timeServer: 300 }));
    expect(applied).toMatchObject({ updated: 1, digest: moved.digest });
    expect(await check('time-server')).toMatchObject({ intervalSeconds: 300 });
    expect(await check('core-switch-v3')).toMatchObject({ enabled: false });
    expect(await check('replica-set')).toMatchObject({ intervalSeconds: 120 });

    // Both sides change the intranet check's interval: a conflict, the value here kept.
    await patch('intranet-ntlm', { intervalSeconds: 120 });
    const both = await convert('dryRun=true', await kuma({ timeServer: 300, intranet: 300 }));
    expect(both).toMatchObject({ updated: 0 });
    expect(entry(both, 'intranet-ntlm')).toMatchObject({
      action: 'unchanged',
      conflicts: [{ field: 'intervalSeconds', here: 120, source: 300, taken: 'here' }],
    });
    expect(entry(both, 'intranet-ntlm').changes).toBeUndefined();
    expect(withDetails(both).map((c) => c.slug)).toEqual(['intranet-ntlm']);
    // With overwrite the source's value is taken, and the preview says so.
    const overwriting = await convert('dryRun=true&overwrite=true', await kuma({ timeServer: 300, intranet: 300 }));
    expect(overwriting.digest).not.toBe(both.digest);
    expect(entry(overwriting, 'intranet-ntlm')).toMatchObject({
      action: 'update',
      changes: [{ field: 'intervalSeconds', from: 120, to: 300 }],
      conflicts: [{ field: 'intervalSeconds', here: 120, source: 300, taken: 'source' }],
    });
    // Applied without overwrite: kept. The conflict is settled: the next re-run shows nothing.
    await convert(`expect=${both.digest}`, await kuma({ timeServer: 300, intranet: 300 }));
    expect(await check('intranet-ntlm')).toMatchObject({ intervalSeconds: 120, config: { basicAuthPassword: '{{secrets.INTRANET_PASSWORD}}' } });
    expect(withDetails(await convert('dryRun=true', await kuma({ timeServer: 300, intranet: 300 })))).toEqual([]);

    // Another conflict, applied with overwrite: the source's value is taken, the secret reference stays.
    await patch('intranet-ntlm', { intervalSeconds: 90 });
    const taken = await convert('overwrite=true', await kuma({ timeServer: 300, intranet: 600 }));
    expect(entry(taken, 'intranet-ntlm')).toMatchObject({
      action: 'update',
      conflicts: [{ field: 'intervalSeconds', here: 90, source: 600, taken: 'source' }],
    });
    expect(await check('intranet-ntlm')).toMatchObject({ intervalSeconds: 600, config: { basicAuthPassword: '{{secrets.INTRANET_PASSWORD}}' } });
    expect(await check('core-switch-v3')).toMatchObject({ enabled: false });
  });

  it('pauses or resumes a check only when the source paused or resumed it since the last import', async () => {
    expect((await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'pausing', name: 'Pausing' } })).status).toBe(201);
    const run = async (query: string, raw: Uint8Array) => {
      const res = await daemon.request('POST', convertPath(`source=uptime-kuma&${query}`, 'pausing'), { token: admin, raw });
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      return res.body;
    };
    const get = async (slug: string) => (await daemon.request('GET', `/orgs/pausing/checks/${slug}`, { token: admin })).body;
    await run('', await kuma());
    expect((await daemon.request('PATCH', '/orgs/pausing/checks/core-switch-v3', { token: admin, body: { enabled: false } })).status).toBe(200);

    // The source pauses the time server (taken: it was not changed here) and the core switch (already paused here: nothing to do).
    const paused = await kuma({ paused: ['Time server', 'Core switch v3'] });
    const preview = await run('dryRun=true', paused);
    expect(entry(preview, 'time-server')).toMatchObject({ action: 'update', changes: [{ field: 'enabled', from: true, to: false }] });
    expect(withDetails(preview).map((c) => c.slug)).toEqual(['time-server']);
    await run('', paused);
    expect(await get('time-server')).toMatchObject({ enabled: false, state: 'paused' });

    // The source resumes the core switch: it was paused here and in the source, so it resumes.
    const resumed = await run('', await kuma({ paused: ['Time server'] }));
    expect(entry(resumed, 'core-switch-v3')).toMatchObject({ action: 'update', changes: [{ field: 'enabled', from: false, to: true }] });
    expect(await get('core-switch-v3')).toMatchObject({ enabled: true, state: 'pending' });
    expect(await get('time-server')).toMatchObject({ enabled: false });

    // Checks imported before baselines were kept: every difference from the source is a conflict, kept.
    await daemon.deps.db.kysely.deleteFrom('check_import_baselines').execute();
    expect((await daemon.request('PATCH', '/orgs/pausing/checks/replica-set', { token: admin, body: { intervalSeconds: 120 } })).status).toBe(200);
    const legacy = await run('', await kuma({ paused: ['Time server'] }));
    expect(legacy).toMatchObject({ updated: 0 });
    expect(withDetails(legacy)).toEqual([
      expect.objectContaining({ slug: 'replica-set', action: 'unchanged', conflicts: [{ field: 'intervalSeconds', here: 120, source: 60, taken: 'here' }] }),
    ]);
    expect(await get('replica-set')).toMatchObject({ intervalSeconds: 120 });
  });

  it('refuses an overwrite that is not true or false', async () => {
    const res = await daemon.request('POST', convertPath('source=uptime-kuma&overwrite=maybe'), { token: admin, raw: await kuma() });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues[0].path).toBe('overwrite');
  });
});
