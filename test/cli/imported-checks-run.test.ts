import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureDatabase } from '../fixtures/import/uptime-kuma/build-database.js';
import { runSvc } from '../support/cli.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startKafkaFake } from '../support/fakes/kafka-fake.js';
import { ensureService, requireProgram, startPrivateMosquitto, startPrivateRedis } from '../support/local-servers.js';

// An Uptime Kuma 2.0 database with MySQL, Redis, MQTT and Kafka monitors whose credentials were
// dropped on import: each check is pointed at a local server that asks for the password (target
// and non-secret fields only; the secret reference stays), its secret is set with
// `svc secrets set`, and `svc checks run` answers up; with a wrong secret, down without the value.

const mariadb = await ensureService('mariadb', 3306);
const redisServer = requireProgram('redis-server');
const mosquitto = requireProgram('mosquitto');

interface ImportWarning {
  slug?: string;
  code: string;
  message: string;
}

describe.each(DATABASE_KINDS)('imported Uptime Kuma checks run once their secrets are set [%s]', (kind) => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let dir: string;
  let warnings: ImportWarning[];

  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
    env = { SVC_CONFIG_DIR: dir, SVC_URL: daemon.url, SVC_TOKEN: await daemon.adminToken() };
    const file = join(dir, 'kuma.db');
    writeFileSync(file, await buildFixtureDatabase('2.0', 'kuma-2.0.sql'));
    const imported = await runSvc(['import', '--source', 'uptime-kuma', '--file', file, '--yes', '--json'], { env, timeoutMs: 60_000 });
    expect(imported.code, imported.stderr).toBe(0);
    warnings = JSON.parse(imported.stdout).warnings;
  });
  afterAll(async () => {
    await daemon?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The secret the import warning of `slug` asks to set. */
  function secretNamed(slug: string): string {
    const warning = warnings.find((w) => w.slug === slug && w.code === 'SECRET_DROPPED');
    const name = /svc secrets set ([A-Z0-9_]+)\)/.exec(warning?.message ?? '')?.[1];
    expect(name, `no secret to set for ${slug}: ${JSON.stringify(warnings.filter((w) => w.slug === slug))}`).toBeDefined();
    return name!;
  }

  /** Points `slug` at the local server, keeping its password reference. */
  async function pointAt(slug: string, target: string, config: Record<string, unknown>, secretPath: (config: Record<string, any>) => unknown) {
    const pointed = await daemon.request('PATCH', `/orgs/default/checks/${slug}`, { token: env.SVC_TOKEN, body: { target, config } });
    expect(pointed.status, JSON.stringify(pointed.body)).toBe(200);
    expect(secretPath(pointed.body.config)).toBe(`{{secrets.${secretNamed(slug)}}}`);
  }

  async function runWith(slug: string, value: string): Promise<{ status: string; message: string; raw: string }> {
    const set = await runSvc(['secrets', 'set', secretNamed(slug), '--stdin'], { env, stdin: `${value}\n` });
    expect(set.code, set.stderr).toBe(0);
    const run = await runSvc(['checks', 'run', slug, '--json'], { env, timeoutMs: 60_000 });
    expect(run.stdout, run.stderr).not.toBe('');
    return { ...JSON.parse(run.stdout), raw: run.stdout + run.stderr };
  }

  /** Down with a wrong secret (the message names what failed, never the value), then up with the right one. */
  async function expectUpOnlyWithSecret(slug: string, password: string, refused: RegExp) {
    const wrongValue = `wrong-${randomBytes(6).toString('hex')}`;
    const wrong = await runWith(slug, wrongValue);
    expect(wrong).toMatchObject({ status: 'down', message: expect.stringMatching(refused) });
    expect(wrong.raw).not.toContain(wrongValue);
    const right = await runWith(slug, password);
    expect(right.status, right.message).toBe('up');
    expect(right.raw + daemon.logs.join('\n')).not.toContain(password);
  }

  it.skipIf(!mariadb.ok)('runs the MySQL check against the local MariaDB with a user that has a password', async () => {
    const user = `svc_import_${randomBytes(3).toString('hex')}`;
    const password = `mysql-${randomBytes(8).toString('hex')}`;
    const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    try {
      await admin.query(`CREATE DATABASE ${user}`);
      for (const host of ['%', 'localhost']) {
        await admin.query(`CREATE USER '${user}'@'${host}' IDENTIFIED BY '${password}'`);
        await admin.query(`GRANT SELECT ON ${user}.* TO '${user}'@'${host}'`);
      }
      await pointAt('shop-database', '127.0.0.1:3306', { username: user, database: user }, (config) => config.password);
      await expectUpOnlyWithSecret('shop-database', password, new RegExp(`authentication failed for user "${user}"`));
    } finally {
      await admin.query(`DROP USER IF EXISTS '${user}'@'%', '${user}'@'localhost'`);
      await admin.query(`DROP DATABASE IF EXISTS ${user}`);
      await admin.end();
    }
  });

  it.skipIf(!redisServer.ok)('runs the Redis check over TLS against a private redis-server that requires the password', async () => {
    const password = `redis-${randomBytes(8).toString('hex')}`;
    const server = await startPrivateRedis(password);
    try {
      // The import kept TLS (rediss://) and database 2; the local certificate is self-signed.
      await pointAt('session-cache', `127.0.0.1:${server.tlsPort}`, { ignoreTlsErrors: true }, (config) => config.password);
      await expectUpOnlyWithSecret('session-cache', password, /authentication failed/);
    } finally {
      await server.stop();
    }
  });

  it.skipIf(!mosquitto.ok)('runs the MQTT check over TLS against a private Mosquitto that admits only its user', async () => {
    const password = `mqtt-${randomBytes(8).toString('hex')}`;
    // The imported monitor signs in as "sensor" and waits for "online" on sensors/+/status.
    const server = await startPrivateMosquitto('sensor', password);
    try {
      const publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: server.port, reconnectPeriod: 0, username: 'sensor', password });
      await publisher.publishAsync('sensors/hall/status', 'online', { retain: true, qos: 1 });
      await publisher.endAsync();
      await pointAt('sensor-feed', `127.0.0.1:${server.tlsPort}`, { ignoreTlsErrors: true }, (config) => config.password);
      await expectUpOnlyWithSecret('sensor-feed', password, /user "sensor" not authorized/);
    } finally {
      await server.stop();
    }
  });

  it('runs the Kafka check against a protocol-level fake broker with SASL/PLAIN', async () => {
    const password = `kafka-${randomBytes(8).toString('hex')}`;
    // The fake signs in with SASL/PLAIN only: the imported SCRAM over TLS is switched to plain TCP and PLAIN.
    const broker = await startKafkaFake({ topics: ['monitoring'], user: { username: 'monitor', password } });
    try {
      await pointAt(
        'events-cluster',
        `127.0.0.1:${broker.port}`,
        { additionalBrokers: [], useTls: false, sasl: { mechanism: 'plain' } },
        (config) => config.sasl?.password,
      );
      await expectUpOnlyWithSecret('events-cluster', password, /authentication failed for user "monitor"/);
      expect(broker.produced).toEqual([expect.objectContaining({ topic: 'monitoring', partition: 0 })]);
    } finally {
      await broker.close();
    }
  });
});
