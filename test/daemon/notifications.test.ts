import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { addMember } from '../support/members.js';

const SLACK_URL = 'https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnopqrstuvwx';
const WEBHOOK_URL = 'https://alerts.example.com/hook/8f14e45fceea167a5a36dedd4bea2543';
const BEARER = 'tok_9a0364b9e99bb480dd25e1f0284c8555';

describe.each(DATABASE_KINDS)('notification channels and own settings [%s]', (kind) => {
  let daemon: TestDaemon;
  let user: string;
  let viewer: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    await daemon.adminToken();
    user = (await addMember(daemon, 'notify-user@example.com', 'user')).token;
    viewer = (await addMember(daemon, 'notify-viewer@example.com', 'viewer')).token;
  });
  afterAll(() => daemon.stop());

  it('stores channel secrets but answers them only masked, from creation on', async () => {
    const created = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: user,
      body: { name: 'Ops webhook', type: 'webhook', config: { url: WEBHOOK_URL, bearerToken: BEARER } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Ops webhook',
      type: 'webhook',
      config: { url: 'https://alerts.example.com/****', method: 'POST', bearerToken: '****8555' },
    });
    const slack = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: user,
      body: { name: 'Slack', type: 'slack', config: { webhookUrl: SLACK_URL } },
    });
    expect(slack.body.config).toEqual({ webhookUrl: 'https://hooks.slack.com/****' });
    const email = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: user,
      body: { name: 'On call', type: 'email', config: { addresses: ['oncall@example.com'] } },
    });
    expect(email.body.config).toEqual({ addresses: ['oncall@example.com'] });

    const list = await daemon.request('GET', '/orgs/default/notification-channels', { token: viewer });
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['Ops webhook', 'Slack', 'On call']);
    const everything = JSON.stringify([
      created.body,
      slack.body,
      list.body,
      (await daemon.request('GET', `/orgs/default/notification-channels/${created.body.uid}`, { token: viewer })).body,
    ]);
    for (const secret of [SLACK_URL, WEBHOOK_URL, BEARER, 'abcdefghijklmnopqrstuvwx', '8f14e45fceea167a5a36dedd4bea2543'])
      expect(everything).not.toContain(secret);

    // Kept in the database for delivery, encrypted with the keyring.
    const row = await daemon.deps.db.kysely.selectFrom('notification_channels').select('config').where('uid', '=', created.body.uid).executeTakeFirstOrThrow();
    expect(row.config).toMatch(/^enc:v1:/);
    for (const secret of [WEBHOOK_URL, BEARER, '8f14e45fceea167a5a36dedd4bea2543']) expect(row.config).not.toContain(secret);
    expect(JSON.parse(daemon.deps.keyring.decrypt(row.config))).toMatchObject({ url: WEBHOOK_URL, bearerToken: BEARER });
  });

  it('merges config changes: a masked secret sent back is kept, a new one replaces it, null removes it', async () => {
    const { body } = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: user,
      body: { name: 'Hook', type: 'webhook', config: { url: WEBHOOK_URL, bearerToken: BEARER } },
    });
    const roundTrip = await daemon.request('PATCH', `/orgs/default/notification-channels/${body.uid}`, {
      token: user,
      body: { name: 'Hook 2', config: { ...body.config, method: 'PUT' } },
    });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body).toMatchObject({ name: 'Hook 2', config: { method: 'PUT', url: 'https://alerts.example.com/****' } });
    const stored = async () =>
      JSON.parse(
        daemon.deps.keyring.decrypt(
          (await daemon.deps.db.kysely.selectFrom('notification_channels').select('config').where('uid', '=', body.uid).executeTakeFirstOrThrow()).config,
        ),
      );
    expect(await stored()).toEqual({ url: WEBHOOK_URL, method: 'PUT', bearerToken: BEARER });

    await daemon.request('PATCH', `/orgs/default/notification-channels/${body.uid}`, {
      token: user,
      body: { config: { url: 'https://other.example.net/x', bearerToken: null } },
    });
    expect(await stored()).toEqual({ url: 'https://other.example.net/x', method: 'PUT' });

    const retype = await daemon.request('PATCH', `/orgs/default/notification-channels/${body.uid}`, { token: user, body: { type: 'discord' } });
    expect(retype.status).toBe(400);
    expect(retype.body.error.details.issues[0].path).toBe('config');
    const discord = await daemon.request('PATCH', `/orgs/default/notification-channels/${body.uid}`, {
      token: user,
      body: { type: 'discord', config: { webhookUrl: 'https://discord.com/api/webhooks/1/secret-part' } },
    });
    expect(discord.body).toMatchObject({ type: 'discord', config: { webhookUrl: 'https://discord.com/****' } });
    expect((await daemon.request('DELETE', `/orgs/default/notification-channels/${body.uid}`, { token: user })).status).toBe(204);
    expect((await daemon.request('GET', `/orgs/default/notification-channels/${body.uid}`, { token: user })).status).toBe(404);
  });

  it('does not carry a stored bearer token to a new webhook URL: the token must be sent again', async () => {
    const { body } = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: user,
      body: { name: 'Token hook', type: 'webhook', config: { url: WEBHOOK_URL, bearerToken: BEARER } },
    });
    const stored = async () =>
      JSON.parse(
        daemon.deps.keyring.decrypt(
          (await daemon.deps.db.kysely.selectFrom('notification_channels').select('config').where('uid', '=', body.uid).executeTakeFirstOrThrow()).config,
        ),
      );
    const path = `/orgs/default/notification-channels/${body.uid}`;
    for (const config of [
      { url: 'https://attacker.example.net/collect' },
      { url: 'https://attacker.example.net/collect', bearerToken: body.config.bearerToken },
    ]) {
      const moved = await daemon.request('PATCH', path, { token: user, body: { config } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(400);
      expect(moved.body.error.code).toBe('VALIDATION_FAILED');
      expect(moved.body.error.details.issues).toEqual([{ path: 'config.bearerToken', message: expect.stringMatching(/send bearerToken again.*url changes/) }]);
      expect(JSON.stringify(moved.body)).not.toContain(BEARER);
    }
    expect(await stored()).toEqual({ url: WEBHOOK_URL, method: 'POST', bearerToken: BEARER });

    // The same URL sent in clear, or masked, is no change of destination.
    expect((await daemon.request('PATCH', path, { token: user, body: { config: { url: WEBHOOK_URL, method: 'PUT' } } })).status).toBe(200);
    expect((await daemon.request('PATCH', path, { token: user, body: { config: { url: body.config.url, method: 'POST' } } })).status).toBe(200);
    // A new URL with a new token is accepted.
    const renewed = await daemon.request('PATCH', path, {
      token: user,
      body: { config: { url: 'https://alerts2.example.com/h', bearerToken: 'tok_new_token_value_1234' } },
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(await stored()).toEqual({ url: 'https://alerts2.example.com/h', method: 'POST', bearerToken: 'tok_new_token_value_1234' });
  });

  it('needs every stored secret again when a channel moves: ntfy server or topic, webhook URL, telegram chat', async () => {
    const cases = [
      {
        type: 'ntfy',
        config: { topic: 'ops-alerts-7f3e9a1c', serverUrl: 'https://ntfy.example.com', accessToken: 'tk_ntfy_access_token_0042' },
        move: { serverUrl: 'https://attacker.example.net' },
        missing: ['config.topic', 'config.accessToken'],
        again: { serverUrl: 'https://ntfy2.example.com', topic: 'ops-alerts-new', accessToken: null },
      },
      {
        type: 'ntfy',
        config: { topic: 'ops-alerts-7f3e9a1c', accessToken: 'tk_ntfy_access_token_0042' },
        move: { serverUrl: 'https://attacker.example.net' },
        missing: ['config.topic', 'config.accessToken'],
        again: { serverUrl: 'https://attacker.example.net', topic: 'their-own', accessToken: null },
      },
      {
        type: 'webhook',
        config: { url: WEBHOOK_URL, bearerToken: BEARER, signingSecret: 'whsec_0123456789abcdef0123' },
        move: { url: 'https://attacker.example.net/collect', bearerToken: 'tok_attacker_chosen_1234' },
        missing: ['config.signingSecret'],
        again: { url: 'https://attacker.example.net/collect', bearerToken: 'tok_attacker_chosen_1234', signingSecret: 'whsec_attackers_own_secret_1' },
      },
      {
        type: 'telegram',
        config: { botToken: '123456:telegram-bot-token-abcdef', chatId: '-1001234567' },
        move: { chatId: '@attackers' },
        missing: ['config.botToken'],
        again: { chatId: '@attackers', botToken: '654321:another-bot-token-xyz' },
      },
    ];
    for (const c of cases) {
      const created = await daemon.request('POST', '/orgs/default/notification-channels', {
        token: user,
        body: { name: `Moving ${c.type}`, type: c.type, config: c.config },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const path = `/orgs/default/notification-channels/${created.body.uid}`;
      const stored = async () =>
        JSON.parse(
          daemon.deps.keyring.decrypt(
            (await daemon.deps.db.kysely.selectFrom('notification_channels').select('config').where('uid', '=', created.body.uid).executeTakeFirstOrThrow())
              .config,
          ),
        );
      const before = await stored();
      // Left out, or sent back masked as the API answered them: the stored secrets stay behind.
      const masked = Object.fromEntries(c.missing.map((field) => [field.slice('config.'.length), created.body.config[field.slice('config.'.length)]]));
      for (const config of [c.move, { ...c.move, ...masked }]) {
        const moved = await daemon.request('PATCH', path, { token: user, body: { config } });
        expect(moved.status, `${c.type} ${JSON.stringify(moved.body)}`).toBe(400);
        expect(moved.body.error.code).toBe('VALIDATION_FAILED');
        expect(moved.body.error.details.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([...c.missing].sort());
        for (const secret of Object.values(c.config)) expect(JSON.stringify(moved.body)).not.toContain(secret);
      }
      expect(await stored()).toEqual(before);
      const renewed = await daemon.request('PATCH', path, { token: user, body: { config: c.again } });
      expect(renewed.status, `${c.type} ${JSON.stringify(renewed.body)}`).toBe(200);
      const after = await stored();
      for (const [field, value] of Object.entries(c.again)) expect(after[field]).toEqual(value === null ? undefined : value);
    }
  });

  it('validates each type of config, naming the field and never echoing a secret', async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['email', { addresses: ['not-an-address'] }, ['config.addresses.0']],
      ['webhook', { url: 'ftp://example.com/x', method: 'GET' }, ['config.method', 'config.url']],
      ['slack', { botToken: 'xoxb-0123456789' }, ['config.channel']],
      ['slack', {}, ['config.webhookUrl']],
      ['discord', { webhookUrl: 'http://discord.com/api/webhooks/1/x', extra: true }, ['config', 'config.webhookUrl']],
    ];
    for (const [type, config, paths] of cases) {
      const res = await daemon.request('POST', '/orgs/default/notification-channels', { token: user, body: { name: 'Bad', type, config } });
      expect(res.status, `${type} ${JSON.stringify(config)}`).toBe(400);
      expect(res.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(paths);
      expect(JSON.stringify(res.body)).not.toContain('xoxb-0123456789');
    }
    const unknown = await daemon.request('POST', '/orgs/default/notification-channels', { token: user, body: { name: 'Pager', type: 'pager', config: {} } });
    expect(unknown.status).toBe(400);
  });

  it('lets a viewer read channels but not change them', async () => {
    const { body } = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: user,
      body: { name: 'Mail', type: 'email', config: { addresses: ['a@example.com'] } },
    });
    for (const [method, path, payload] of [
      ['POST', '/orgs/default/notification-channels', { name: 'V', type: 'email', config: { addresses: ['v@example.com'] } }],
      ['PATCH', `/orgs/default/notification-channels/${body.uid}`, { name: 'V' }],
      ['DELETE', `/orgs/default/notification-channels/${body.uid}`, undefined],
    ] as const) {
      const res = await daemon.request(method, path, { token: viewer, body: payload });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('lets every member, a viewer too, read and replace their own notification settings', async () => {
    const defaults = await daemon.request('GET', '/auth/me/notification-settings?org=default', { token: viewer });
    expect(defaults.status).toBe(200);
    expect(defaults.body).toEqual({
      org: 'default',
      email: true,
      events: ['incident.opened', 'incident.acknowledged', 'incident.resolved', 'check.down', 'check.up'],
      quietHours: null,
      updatedAt: null,
    });
    const saved = await daemon.request('PUT', '/auth/me/notification-settings?org=default', {
      token: viewer,
      body: { email: false, events: ['incident.opened'], quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      org: 'default',
      email: false,
      events: ['incident.opened'],
      quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Berlin' },
    });
    expect((await daemon.request('GET', '/auth/me/notification-settings?org=default', { token: viewer })).body).toEqual(saved.body);
    // Each member has their own.
    expect((await daemon.request('GET', '/auth/me/notification-settings?org=default', { token: user })).body.updatedAt).toBeNull();

    const bad = await daemon.request('PUT', '/auth/me/notification-settings?org=default', {
      token: viewer,
      body: { events: ['incident.exploded'], quietHours: { start: '25:00', end: '07:00', timeZone: 'Mars/Olympus' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['events.0', 'quietHours.start', 'quietHours.timeZone']);

    const noOrg = await daemon.request('GET', '/auth/me/notification-settings', { token: viewer });
    expect(noOrg.status).toBe(400);
    expect(noOrg.body.error.details.issues[0].path).toBe('org');
    const stranger = await daemon.register('notify-stranger@example.com');
    expect((await daemon.request('PUT', '/auth/me/notification-settings?org=default', { token: stranger.token, body: {} })).status).toBe(404);
  });
});
