import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const CONCURRENT = 80;

describe.each(DATABASE_KINDS)('concurrent first writes of a setting all succeed [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  const all = async (make: (i: number) => { method: string; path: string; body: unknown }) => {
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => {
        const { method, path, body } = make(i);
        return daemon.request(method, path, { token: admin, body });
      }),
    );
    return answers.map((res) => res.status);
  };
  const only2xx = (statuses: number[]) => expect(statuses.filter((s) => s < 200 || s > 299)).toEqual([]);

  it(`${CONCURRENT} PATCH /orgs/{org} setting the registration pattern at once`, async () => {
    const created = await daemon.request('POST', '/orgs', { token: admin, body: { slug: 'racing', name: 'Racing' } });
    expect(created.status).toBe(201);
    only2xx(await all((i) => ({ method: 'PATCH', path: '/orgs/racing', body: { registrationEmailPattern: `@team${i}\\.test$` } })));
    const org = await daemon.request('GET', '/orgs/racing', { token: admin });
    expect(org.body.registrationEmailPattern).toMatch(/^@team\d+\\\.test\$$/);
  });

  it(`${CONCURRENT} PUT /system/hashing at once`, async () => {
    only2xx(await all((i) => ({ method: 'PUT', path: '/system/hashing', body: { argon2: { time: 2 + (i % 3) }, rehashOnLogin: false } })));
    const saved = await daemon.request('GET', '/system/hashing', { token: admin });
    expect(saved.body.overrides).toMatchObject({ rehashOnLogin: false });
  });

  it(`${CONCURRENT} PUT of the group-role mapping and of a check's channels at once`, async () => {
    only2xx(await all((i) => ({ method: 'PUT', path: '/orgs/default/group-roles', body: { groupRoles: { ops: 'admin', [`team${i % 4}`]: 'user' } } })));
    const check = await daemon.request('POST', '/orgs/default/checks', { token: admin, body: { name: 'Shop', type: 'http', target: 'https://example.com/' } });
    expect(check.status).toBe(201);
    const channel = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/x' } },
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    only2xx(await all(() => ({ method: 'PUT', path: '/orgs/default/checks/shop/channels', body: { channels: [channel.body.uid] } })));
    expect((await daemon.request('GET', '/orgs/default/checks/shop/channels', { token: admin })).body).toMatchObject({ channels: [channel.body.uid] });
  });
});
