import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HASHING_PARAMETER } from '../../daemon/auth/boot-policy.js';
import { writeParameter } from '../../daemon/parameters.js';
import { createTestDatabase, DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_PASSWORD, startTestDaemon, TEST_SECRET_KEY, type TestDaemon } from '../support/daemon.js';

const ARGON_FAST = { SVC_AUTH_PASSWORD_ARGON2_MEMORY: '8192', SVC_AUTH_PASSWORD_ARGON2_TIME: '1', SVC_AUTH_PASSWORD_ARGON2_THREADS: '1' };

async function storedHash(daemon: TestDaemon, email: string): Promise<string> {
  const row = await daemon.deps.db.kysely.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow();
  return row.password_hash!;
}

/** Runs `steps` against a daemon, restarting it on the same database between steps with new settings. */
async function withRestarts(kind: (typeof DATABASE_KINDS)[number], steps: { env: Record<string, string>; run(daemon: TestDaemon): Promise<void> }[]) {
  const database = await createTestDatabase(kind);
  try {
    for (const step of steps) {
      const daemon = await startTestDaemon(kind, { database, env: step.env });
      try {
        await step.run(daemon);
      } finally {
        await daemon.close();
      }
    }
  } finally {
    await database.drop();
  }
}

describe.each(DATABASE_KINDS)('password hashing policy in the daemon [%s]', (kind) => {
  it('re-hashes on a successful sign-in when the policy changed and the flag is on (rules 1 and the re-hash row)', async () => {
    await withRestarts(kind, [
      { env: ARGON_FAST, run: async (d) => void (await d.register('ann@example.com', 'anns password')) },
      {
        env: { ...ARGON_FAST, SVC_AUTH_PASSWORD_ALGORITHM: 'bcrypt', SVC_AUTH_PASSWORD_BCRYPT_COST: '10' },
        async run(d) {
          expect(await storedHash(d, 'ann@example.com')).toMatch(/^\$argon2id\$/);
          await d.login('ann@example.com', 'anns password');
          expect(await storedHash(d, 'ann@example.com')).toMatch(/^\$2[aby]\$10\$/);
          await d.login('ann@example.com', 'anns password');
        },
      },
      {
        env: { ...ARGON_FAST, SVC_AUTH_PASSWORD_ARGON2_TIME: '2' },
        async run(d) {
          await d.login('ann@example.com', 'anns password');
          expect(await storedHash(d, 'ann@example.com')).toMatch(/^\$argon2id\$v=19\$m=8192,t=2,p=1\$/);
        },
      },
    ]);
  });

  it('keeps the stored hash when re-hash on login is off; only new passwords use the new policy', async () => {
    await withRestarts(kind, [
      { env: ARGON_FAST, run: async (d) => void (await d.register('bob@example.com', 'bobs password')) },
      {
        env: { ...ARGON_FAST, SVC_AUTH_PASSWORD_ARGON2_TIME: '2', SVC_AUTH_PASSWORD_REHASH_ON_LOGIN: 'false' },
        async run(d) {
          const before = await storedHash(d, 'bob@example.com');
          const token = await d.login('bob@example.com', 'bobs password');
          expect(await storedHash(d, 'bob@example.com')).toBe(before);
          await d.register('new@example.com', 'new password');
          expect(await storedHash(d, 'new@example.com')).toMatch(/m=8192,t=2,p=1/);
          await d.request('POST', '/auth/password', { token, body: { currentPassword: 'bobs password', newPassword: 'bobs next password' } });
          expect(await storedHash(d, 'bob@example.com')).toMatch(/m=8192,t=2,p=1/);
        },
      },
    ]);
  });

  it('validates stored overrides at save and applies them after a restart (rule 5)', async () => {
    await withRestarts(kind, [
      {
        env: ARGON_FAST,
        async run(d) {
          const token = await d.adminToken();
          for (const [body, field] of [
            [{ bcrypt: { cost: 9 } }, 'bcrypt.cost'],
            [{ argon2: { memory: 100 } }, 'argon2.memory'],
            [{ algorithm: 'md5' }, 'algorithm'],
            [{ argon2: { speed: 1 } }, 'argon2.speed'],
          ] as const) {
            const res = await d.request('PUT', '/system/hashing', { token, body });
            expect(res.status).toBe(400);
            expect(res.body.error.code).toBe('VALIDATION_FAILED');
            expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(field);
          }
          const saved = await d.request('PUT', '/system/hashing', { token, body: { argon2: { time: 2, memory: null }, rehashOnLogin: false } });
          expect(saved.status).toBe(200);
          expect(saved.body.overrides).toEqual({ argon2: { time: 2 }, rehashOnLogin: false });
          expect(saved.body.pendingRestart).toBe(true);
          expect(saved.body.effective.argon2.time).toBe(1);
          expect(Object.keys(saved.body.presets).sort()).toEqual(['bcrypt', 'default', 'lighter', 'min']);
        },
      },
      {
        env: ARGON_FAST,
        async run(d) {
          const token = await d.login('admin@svc.local', ADMIN_PASSWORD);
          const view = await d.request('GET', '/system/hashing', { token });
          expect(view.body.effective).toMatchObject({ argon2: { time: 2, memory: 8192 }, rehashOnLogin: false });
          expect(view.body.pendingRestart).toBe(false);
          await d.register('carol@example.com', 'carols password');
          expect(await storedHash(d, 'carol@example.com')).toMatch(/m=8192,t=2,p=1/);
        },
      },
    ]);
  });

  it('ignores a malformed stored override at boot and keeps the prior policy (rule 5, "Errors")', async () => {
    for (const bad of [
      'not json at all',
      '{"nope": 1}',
      JSON.stringify({ value: { bcrypt: { cost: 99 } } }),
      JSON.stringify({ value: { algorithm: 'off' } }),
    ]) {
      await withRestarts(kind, [
        {
          env: ARGON_FAST,
          async run(d) {
            await writeParameter(d.deps, null, HASHING_PARAMETER, {});
            await d.deps.db.kysely.updateTable('parameters').set({ value: bad }).where('key', '=', HASHING_PARAMETER).execute();
          },
        },
        {
          env: ARGON_FAST,
          async run(d) {
            expect(d.deps.policy.effective).toEqual(d.deps.config.auth.password);
            expect(d.logs.some((line) => line.includes('stored password hashing overrides ignored'))).toBe(true);
            expect((await d.request('GET', '/health')).status).toBe(200);
          },
        },
      ]);
    }
  });

  it('rejects a non-super-admin', async () => {
    const d = await startTestDaemon(kind);
    try {
      const { token } = await d.register('user@example.com');
      const res = await d.request('GET', '/system/hashing', { token });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    } finally {
      await d.stop();
    }
  });
});

describe.each(DATABASE_KINDS)('first start [%s]', (kind) => {
  it('reads SVC_ADMIN_EMAIL only while no organization exists', async () => {
    await withRestarts(kind, [
      { env: { SVC_ADMIN_EMAIL: 'First@Example.com' }, run: async (d) => void (await d.login('first@example.com', 'svc-admin')) },
      {
        env: { SVC_ADMIN_EMAIL: 'second@example.com' },
        async run(d) {
          const users = await d.deps.db.kysely.selectFrom('users').select(['email', 'super_admin']).execute();
          expect(users).toEqual([{ email: 'first@example.com', super_admin: 1 }]);
        },
      },
    ]);
  });

  it('two daemon processes starting at once on one database create exactly one admin', async () => {
    const database = await createTestDatabase(kind);
    try {
      const outputs = await Promise.all([startDaemonProcess(database.url), startDaemonProcess(database.url)]);
      const firstStarts = outputs.filter((out) => out.includes('First start')).length;
      expect(firstStarts).toBe(1);
      const check = await startTestDaemon(kind, { database });
      try {
        expect(await check.deps.db.kysely.selectFrom('users').select('email').execute()).toEqual([{ email: 'admin@svc.local' }]);
        expect(await check.deps.db.kysely.selectFrom('organizations').select('slug').execute()).toEqual([{ slug: 'default' }]);
        expect(await check.deps.db.kysely.selectFrom('members').select('role').execute()).toEqual([{ role: 'owner' }]);
      } finally {
        await check.close();
      }
    } finally {
      await database.drop();
    }
  });
});

/** Starts `svc daemon` as a process, waits until it listens, stops it, and returns what it printed. */
function startDaemonProcess(dbUrl: string): Promise<string> {
  const bin = fileURLToPath(new URL('../../bin/svc', import.meta.url));
  const child = spawn(process.execPath, [bin, 'daemon'], {
    env: {
      PATH: process.env.PATH,
      SVC_DB_URL: dbUrl,
      SVC_LISTEN: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      ...(dbUrl.startsWith('sqlite:') ? {} : { SVC_SECRET_KEY: TEST_SECRET_KEY }),
      ...ARGON_FAST,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`daemon did not start: ${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on') && /\n.*\n?$/.test(output)) {
        setTimeout(() => child.kill('SIGTERM'), 100);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => {
      clearTimeout(timer);
      if (output.includes('listening on')) resolve(output);
      else reject(new Error(`daemon exited before listening: ${output}`));
    });
  });
}
