import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LABEL_FILTERS } from '../../../daemon/checks/check-list-query.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const labelsOf = (count: number, last = 'v') => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i === count - 1 ? last : 'v']));
const filterQuery = (count: number) => Array.from({ length: count }, (_, i) => `label=k${i}=v`).join('&');

describe.each(DATABASE_KINDS)('label filters are capped and cost one query [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
    const make = async (name: string, labels: Record<string, string>) => {
      const res = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name, type: 'http', target: 'https://example.com/', labels } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await make('All labels', labelsOf(MAX_LABEL_FILTERS));
    await make('One label differs', labelsOf(MAX_LABEL_FILTERS, 'other'));
    await make('Fewer labels', labelsOf(MAX_LABEL_FILTERS - 1));
    await make('No labels', {});
  });
  afterAll(() => daemon.stop());

  it('answers 400 to 200 label filters, naming the cap', async () => {
    const res = await daemon.request('GET', `/orgs/default/checks?${filterQuery(200)}`, { token: admin });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.issues[0]).toMatchObject({ path: 'label', message: expect.stringContaining(`at most ${MAX_LABEL_FILTERS}`) });
    expect((await daemon.request('GET', `/orgs/default/checks?${filterQuery(MAX_LABEL_FILTERS + 1)}`, { token: admin })).status).toBe(400);
  });

  it('answers the cap’s worth of filters with exactly the checks carrying every label', async () => {
    const res = await daemon.request('GET', `/orgs/default/checks?${filterQuery(MAX_LABEL_FILTERS)}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.items.map((c: { slug: string }) => c.slug)).toEqual(['all-labels']);
    const fewer = await daemon.request('GET', `/orgs/default/checks?${filterQuery(MAX_LABEL_FILTERS - 1)}&limit=1`, { token: admin });
    expect(fewer.body.items.map((c: { slug: string }) => c.slug)).toEqual(['all-labels']);
    const next = await daemon.request('GET', `/orgs/default/checks?${filterQuery(MAX_LABEL_FILTERS - 1)}&limit=5&cursor=${fewer.body.nextCursor}`, {
      token: admin,
    });
    expect(next.body.items.map((c: { slug: string }) => c.slug)).toEqual(['one-label-differs', 'fewer-labels']);
    // A repeated filter counts once; two values for one key match nothing.
    expect((await daemon.request('GET', '/orgs/default/checks?label=k0=v&label=k0=v&label=k1=v', { token: admin })).body.items).toHaveLength(3);
    expect((await daemon.request('GET', '/orgs/default/checks?label=k0=v&label=k0=w', { token: admin })).body.items).toEqual([]);
  });
});
