import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../daemon/db/connect.js';
import { keyIdOf } from '../../../daemon/secrets/keyring.js';
import { prepareCheck } from '../../../daemon/secrets/substitute.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

const KEY_A = Buffer.alloc(32, 1).toString('base64');
const KEY_B = Buffer.alloc(32, 2).toString('base64');
const VALUE = 'rotating-value-0b1c2d3e4f';
const CHANNEL_URL = 'https://hooks.example.com/services/T0/B0/plaintextsecret0123';

describe.each(DATABASE_KINDS)('the keyring at start-up [%s]', (kind) => {
  const open: TestDaemon[] = [];
  const databases: TestDatabase[] = [];
  const start = async (database: TestDatabase, env: Record<string, string>) => {
    const daemon = await startTestDaemon(kind, { database, env });
    open.push(daemon);
    return daemon;
  };
  const fresh = async () => {
    const database = await createTestDatabase(kind);
    databases.push(database);
    return database;
  };
  const stop = async (daemon: TestDaemon) => {
    open.splice(open.indexOf(daemon), 1);
    await daemon.close();
  };
  afterEach(async () => {
    for (const daemon of open.splice(0)) await daemon.close();
    for (const database of databases.splice(0)) await database.drop();
  });

  it('keeps sessions across a restart without SVC_AUTH_JWT_SECRET (the signing key comes from the keyring)', async () => {
    const database = await fresh();
    const env = { SVC_AUTH_JWT_SECRET: '', ...(kind === 'postgres' ? { SVC_SECRET_KEY: KEY_A } : {}) };
    const first = await start(database, env);
    const token = await first.adminToken();
    expect((await first.request('GET', '/auth/me', { token })).status).toBe(200);
    await stop(first);
    const second = await start(database, env);
    expect((await second.request('GET', '/auth/me', { token })).status).toBe(200);
  });

  it('refuses to start with a key that does not match the stored key check, with a clear message', async () => {
    const database = await fresh();
    const first = await start(database, { SVC_SECRET_KEY: KEY_A });
    await first.adminToken();
    await stop(first);
    await expect(startTestDaemon(kind, { database, env: { SVC_SECRET_KEY: KEY_B } })).rejects.toThrow(
      /secret key does not match the one this database was encrypted with.*SVC_SECRET_KEY_PREVIOUS/,
    );
    // The right key still starts.
    await start(database, { SVC_SECRET_KEY: KEY_A });
  });

  it('rotates: the previous key reads old values, svc admin secrets rotate re-encrypts them, the old key alone is then refused', async () => {
    const database = await fresh();
    const first = await start(database, { SVC_SECRET_KEY: KEY_A });
    const admin = await first.adminToken();
    await first.request('PUT', '/orgs/default/secrets/ROTATED', { token: admin, body: { value: VALUE } });
    const channel = await first.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'Hook', type: 'webhook', config: { url: CHANNEL_URL } },
    });
    const idA = first.deps.keyring.currentId;
    await stop(first);

    const rotating = await start(database, { SVC_SECRET_KEY: KEY_B, SVC_SECRET_KEY_PREVIOUS: KEY_A });
    const idB = rotating.deps.keyring.currentId;
    expect(idB).not.toBe(idA);
    const token = await rotating.login('admin@svc.local', 'admin-password-1');
    expect((await rotating.request('GET', `/orgs/default/notification-channels/${channel.body.uid}`, { token })).body.config.url).toBe(
      'https://hooks.example.com/****',
    );
    const org = await rotating.deps.db.kysely.selectFrom('organizations').select('uid').where('slug', '=', 'default').executeTakeFirstOrThrow();
    const check = {
      slug: 'x',
      name: 'x',
      type: 'redis',
      enabled: true,
      intervalSeconds: 60,
      target: 'cache:6379',
      thresholds: {} as never,
      labels: {},
      config: { database: 0, password: '{{secrets.ROTATED}}', useTls: false, ignoreTlsErrors: false, invert: false },
    } as const;
    expect((await prepareCheck(rotating.deps, org.uid, check as never)).secretValues).toEqual([VALUE]);

    const rotated = await rotating.request('POST', '/system/secrets/rotate', { token });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ reencrypted: 2, keyId: idB });
    const db = rotating.deps.db.kysely;
    const values = [
      (await db.selectFrom('org_secrets').select('value').executeTakeFirstOrThrow()).value,
      (await db.selectFrom('notification_channels').select('config').executeTakeFirstOrThrow()).config,
    ];
    expect(values.map(keyIdOf)).toEqual([idB, idB]);
    expect((await rotating.request('POST', '/system/secrets/rotate', { token })).body.reencrypted).toBe(0);
    expect(JSON.stringify(rotated.body) + rotating.logs.join('\n')).not.toContain(VALUE);
    await stop(rotating);

    const after = await start(database, { SVC_SECRET_KEY: KEY_B });
    expect((await prepareCheck(after.deps, org.uid, check as never)).secretValues).toEqual([VALUE]);
    await stop(after);
    await expect(startTestDaemon(kind, { database, env: { SVC_SECRET_KEY: KEY_A } })).rejects.toThrow(/key check failed/);
  });

  it('encrypts secrets stored in clear before encryption existed, once, at the next start', async () => {
    const database = await fresh();
    const first = await start(database, {});
    const admin = await first.adminToken();
    const channel = await first.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name: 'Hook', type: 'webhook', config: { url: CHANNEL_URL } },
    });
    const me = await first.request('GET', '/auth/me', { token: admin });
    await stop(first);

    // What a database written by an earlier version holds: settings and a TOTP secret in clear.
    const raw = openDatabase(database.url);
    await raw.kysely
      .updateTable('notification_channels')
      .set({ config: JSON.stringify({ url: CHANNEL_URL, method: 'POST' }) })
      .execute();
    await raw.kysely
      .updateTable('users')
      .set({ totp_pending_secret: 'JBSWY3DPEHPK3PXP' })
      .where('uid', '=', me.body.user?.uid ?? me.body.uid)
      .execute();
    await raw.close();

    const second = await start(database, {});
    expect(second.logs.join('\n')).toMatch(/encrypted 2 stored secrets that were in clear/);
    const db = second.deps.db.kysely;
    const config = (await db.selectFrom('notification_channels').select('config').executeTakeFirstOrThrow()).config;
    expect(config).toMatch(/^enc:v1:/);
    expect(JSON.parse(second.deps.keyring.decrypt(config))).toEqual({ url: CHANNEL_URL, method: 'POST' });
    const pending = (await db.selectFrom('users').select('totp_pending_secret').where('totp_pending_secret', 'is not', null).executeTakeFirstOrThrow())
      .totp_pending_secret!;
    expect(second.deps.keyring.decrypt(pending)).toBe('JBSWY3DPEHPK3PXP');
    const token = await second.login('admin@svc.local', 'admin-password-1');
    expect((await second.request('GET', `/orgs/default/notification-channels/${channel.body.uid}`, { token })).body.config.url).toBe(
      'https://hooks.example.com/****',
    );
    await stop(second);
    const third = await start(database, {});
    expect(third.logs.join('\n')).not.toMatch(/stored secrets that were in clear/);
  });

  if (kind === 'sqlite') {
    it('generates a key beside the SQLite file (mode 0600) on first start, says so, and reuses it', async () => {
      const database = await fresh();
      const keyFile = join(dirname(database.url.slice('sqlite:'.length)), 'secret.key');
      const first = await start(database, {});
      expect(existsSync(keyFile)).toBe(true);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(first.logs.join('\n')).toContain(`generated a secret key in ${keyFile}`);
      const key = readFileSync(keyFile, 'utf8');
      expect(first.logs.join('\n')).not.toContain(key.trim());
      await stop(first);
      const second = await start(database, {});
      expect(readFileSync(keyFile, 'utf8')).toBe(key);
      expect(second.logs.join('\n')).not.toContain('generated a secret key');
    });
  } else {
    it('refuses to start on PostgreSQL without SVC_SECRET_KEY, saying what to set', async () => {
      const database = await fresh();
      await expect(startTestDaemon(kind, { database, env: { SVC_SECRET_KEY: '' } })).rejects.toThrow(/SVC_SECRET_KEY is required with PostgreSQL/);
    });
  }
});
