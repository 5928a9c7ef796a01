import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// U+0000 and the other control characters are invalid in XML (the Atom feed, the badges) and can
// forge lines in mails and logs: every name a member types refuses them with 400, writing nothing.
describe.each(DATABASE_KINDS)('names and titles refuse control characters [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon?.stop());

  const post = (path: string, body: unknown) => daemon.request('POST', path, { token: admin, body });
  const cases: [what: string, send: (bad: string) => ReturnType<typeof post>, field: string][] = [
    ['check name', (bad) => post('/orgs/default/checks', { name: bad, slug: 'x1', type: 'tcp', target: 'db.example.com:5432' }), 'name'],
    [
      'check description',
      (bad) => post('/orgs/default/checks', { name: 'Fine', slug: 'x2', type: 'tcp', target: 'db.example.com:5432', description: bad }),
      'description',
    ],
    [
      'check label value',
      (bad) => post('/orgs/default/checks', { name: 'Fine', slug: 'x3', type: 'tcp', target: 'db.example.com:5432', labels: { team: bad } }),
      'labels.team',
    ],
    ['status page title', (bad) => post('/orgs/default/status-pages', { title: bad }), 'title'],
    ['status page description', (bad) => post('/orgs/default/status-pages', { title: 'Fine', description: bad }), 'description'],
    ['channel name', (bad) => post('/orgs/default/notification-channels', { name: bad, type: 'email', config: { addresses: ['a@example.com'] } }), 'name'],
    ['incident title', (bad) => post('/orgs/default/incidents', { title: bad }), 'title'],
    ['organization name', (bad) => post('/orgs', { slug: 'ctl-org', name: bad }), 'name'],
    ['token name', (bad) => post('/auth/tokens', { name: bad, org: 'default' }), 'name'],
    ['secret name', (bad) => daemon.request('PUT', `/orgs/default/secrets/${encodeURIComponent(bad)}`, { token: admin, body: { value: 'v' } }), ''],
  ];

  it.each(['Payments\u0000API', 'Bell\u0007', 'C1\u0085', 'ESC\u001b[31m'])('refuses %j in every name with 400, writing nothing', async (bad) => {
    const before = await snapshot();
    for (const [what, send, field] of cases) {
      const answer = await send(bad);
      // A NUL in a path identifier is refused at the edge as naming nothing (404), before any validation.
      const refused = what === 'secret name' && bad.includes('\u0000') ? 404 : 400;
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(refused);
      if (field && refused === 400)
        expect(
          answer.body.error.details.issues.map((issue: { path: string }) => issue.path),
          what,
        ).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('keeps tabs and line breaks in descriptions, and plain names', async () => {
    expect(
      (await post('/orgs/default/checks', { name: 'Payments API', type: 'tcp', target: 'db.example.com:5432', description: 'Line one\nLine\ttwo' })).status,
    ).toBe(201);
    expect((await post('/orgs/default/status-pages', { title: 'Status', description: 'We watch:\r\n- payments' })).status).toBe(201);
  });

  async function snapshot() {
    const db = daemon.deps.db.kysely;
    const count = async (table: 'checks' | 'status_pages' | 'notification_channels' | 'incidents' | 'organizations' | 'personal_tokens' | 'org_secrets') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return Promise.all(
      (['checks', 'status_pages', 'notification_channels', 'incidents', 'organizations', 'personal_tokens', 'org_secrets'] as const).map(count),
    );
  }
});
