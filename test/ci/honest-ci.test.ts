import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { updateSwitch } from '../support/required-tool.js';

// CI must fail loudly rather than pass on a machine that lacks what the suites need.

const POSTGRES_READY = fileURLToPath(new URL('../../.ci/postgres-ready', import.meta.url));

const postgresReady = (url: string) =>
  spawnSync(POSTGRES_READY, { env: { PATH: process.env.PATH ?? '', SVC_TEST_PG_URL: url }, encoding: 'utf8', timeout: 60_000 });

describe('.ci/run', () => {
  it('stops when PostgreSQL does not answer at SVC_TEST_PG_URL', () => {
    const run = postgresReady('postgres://postgres@127.0.0.1:1/test');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PostgreSQL at postgres://127.0.0.1:1/test does not answer');
  });

  it.skipIf(!inject('pgUrl'))('passes when it answers, creating the test database when missing', () => {
    const url = inject('pgUrl');
    const fresh = `${url.slice(0, url.lastIndexOf('/'))}/svc_ci_${process.pid}`;
    try {
      const first = postgresReady(fresh);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toContain(`creating database svc_ci_${process.pid}`);
      const again = postgresReady(fresh);
      expect(again.status).toBe(0);
      expect(again.stdout).not.toContain('creating database');
    } finally {
      spawnSync('psql', [`${url.slice(0, url.lastIndexOf('/'))}/postgres`, '-qc', `drop database if exists svc_ci_${process.pid}`]);
    }
  });
});

describe('fixture regeneration switches', () => {
  const saved = { CI: process.env.CI, UPDATE_DOCS: process.env.UPDATE_DOCS };
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('are refused under CI=true', () => {
    process.env.UPDATE_DOCS = '1';
    process.env.CI = 'true';
    expect(() => updateSwitch('UPDATE_DOCS')).toThrow('UPDATE_DOCS rewrites expected files and is refused under CI=true');
  });

  it('work outside CI', () => {
    process.env.UPDATE_DOCS = '1';
    delete process.env.CI;
    expect(updateSwitch('UPDATE_DOCS')).toBe(true);
  });
});
