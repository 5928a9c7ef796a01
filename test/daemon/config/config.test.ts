import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/config.js';
import { ConfigError } from '../../../daemon/config/config-error.js';
import { renderSettingsTable, SETTINGS_END, SETTINGS_START } from '../../support/config-docs.js';
import { updateSwitch } from '../../support/required-tool.js';

const dir = () => mkdtempSync(join(tmpdir(), 'svc-config-'));
const withFile = (yaml: string) => {
  const cwd = dir();
  writeFileSync(join(cwd, 'svc.yaml'), yaml);
  return cwd;
};
const failure = (env: NodeJS.ProcessEnv, cwd = dir()): string => {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, dir());
    expect(config.dbUrl).toBe('sqlite:./data/svc.db');
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 4000 });
    expect(config.baseUrl).toBe('http://localhost:4000');
    expect(config.adminEmail).toBe('admin@svc.local');
    expect(config.auth.password).toEqual({
      algorithm: 'argon2id',
      argon2: { memory: 65536, time: 3, threads: 4, keyLength: 32, saltLength: 16 },
      bcrypt: { cost: 12 },
      rehashOnLogin: true,
    });
    expect(config.auth.sessionTtlSeconds).toBe(7 * 86400);
    expect(config.auth.jwtSecretGenerated).toBe(true);
    expect(config.auth.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(config.auth.enterpriseCloudTenantId).toBe('common');
    expect(config.auth.providers).toEqual({});
  });

  it('reads SVC_RUNNER_ALLOW as a list of addresses and networks, from the environment or a YAML list, and names a bad entry', () => {
    expect(loadConfig({ SVC_RUNNER_ALLOW: '127.0.0.0/8, ::1' }, dir()).runner.allow).toEqual(['127.0.0.0/8', '::1']);
    expect(loadConfig({}, withFile('runner:\n  allow: [10.0.0.0/8, "fd00::/8"]\n')).runner.allow).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(loadConfig({}, dir()).runner.allow).toEqual([]);
    expect(failure({ SVC_RUNNER_ALLOW: '127.0.0.0/8, example.com' })).toContain('got "example.com"');
  });

  it('a random JWT secret differs on each start', () => {
    expect(loadConfig({}, dir()).auth.jwtSecret).not.toBe(loadConfig({}, dir()).auth.jwtSecret);
  });

  it('environment beats file beats default', () => {
    const cwd = withFile('auth:\n  password:\n    argon2:\n      time: 4\n      threads: 2\nlisten: 0.0.0.0:5000\n');
    const config = loadConfig({ SVC_AUTH_PASSWORD_ARGON2_TIME: '5' }, cwd);
    expect(config.auth.password.argon2.time).toBe(5);
    expect(config.auth.password.argon2.threads).toBe(2);
    expect(config.auth.password.argon2.memory).toBe(65536);
    expect(config.listen).toEqual({ host: '0.0.0.0', port: 5000 });
  });

  it('reads SVC_CONFIG and refuses a missing one', () => {
    const cwd = withFile('base_url: https://status.example.com/\n');
    expect(loadConfig({ SVC_CONFIG: join(cwd, 'svc.yaml') }, dir()).baseUrl).toBe('https://status.example.com');
    expect(failure({ SVC_CONFIG: join(cwd, 'missing.yaml') })).toMatch(/^SVC_CONFIG: .*does not exist/);
  });

  it('refuses unknown file keys and ill-typed values, naming them', () => {
    expect(failure({}, withFile('auth:\n  pasword:\n    algorithm: bcrypt\n'))).toMatch(/unknown setting "auth.pasword.algorithm"/);
    expect(failure({ SVC_AUTH_PASSWORD_ARGON2_TIME: 'three' })).toMatch(/^SVC_AUTH_PASSWORD_ARGON2_TIME: .*integer/);
    expect(failure({ SVC_LISTEN: 'localhost:99999' })).toMatch(/^SVC_LISTEN: /);
    expect(failure({ SVC_DB_URL: 'mysql://x' })).toMatch(/^SVC_DB_URL: /);
    expect(failure({ SVC_AUTH_PASSWORD_REHASH_ON_LOGIN: 'maybe' })).toMatch(/^SVC_AUTH_PASSWORD_REHASH_ON_LOGIN: /);
    expect(failure({ SVC_AUTH_REGISTRATION_EMAIL_PATTERN: '([' })).toMatch(/^SVC_AUTH_REGISTRATION_EMAIL_PATTERN: .*regular expression/);
    expect(failure({}, withFile('auth:\n  session_ttl: soon\n'))).toMatch(/^auth.session_ttl in .*svc.yaml: /);
    expect(failure({}, withFile('auth: [1, 2\n'))).toMatch(/not valid YAML/);
  });

  it('reads an empty file as no settings, and refuses two documents and alias bombs', () => {
    expect(loadConfig({}, withFile('# nothing set yet\n')).baseUrl).toBe('http://localhost:4000');
    expect(failure({}, withFile('base_url: https://a.example\n---\nbase_url: https://b.example\n'))).toMatch(/expected one YAML document, found 2/);
    let bomb = 'x0: &x0 {a: {}, b: {}}\n';
    for (let level = 1; level < 40; level++) bomb += `x${level}: &x${level} {a: *x${level - 1}, b: *x${level - 1}}\n`;
    expect(failure({}, withFile(bomb))).toMatch(/more than 10000 values/);
  });

  it('never echoes a secret value in an error', () => {
    const message = failure({ SVC_AUTH_JWT_SECRET: 'x'.repeat(40), SVC_SMTP_URL: '', SVC_DB_URL: 'nope' });
    expect(message).not.toContain('xxxx');
  });

  it('warns about an unknown SVC_ variable but starts', () => {
    const config = loadConfig({ SVC_AUTH_PASWORD_ALGORITHM: 'bcrypt', SVC_URL: 'http://x' }, dir());
    expect(config.warnings.some((w) => w.includes('SVC_AUTH_PASWORD_ALGORITHM'))).toBe(true);
    expect(config.warnings.some((w) => w.includes('SVC_URL'))).toBe(false);
  });

  it('accepts platform names for providers and needs both id and secret', () => {
    const config = loadConfig({ SVC_GITHUB_CLIENT_ID: 'id', SVC_GITHUB_CLIENT_SECRET: 'secret', SVC_SEARCH_PORTAL_CLIENT_ID: 'only-id' }, dir());
    expect(config.auth.providers).toEqual({ code_host_a: { clientId: 'id', clientSecret: 'secret' } });
    expect(config.warnings.some((w) => w.includes('search_portal'))).toBe(true);
  });

  it('validates the enterprise tenant (empty means common)', () => {
    expect(loadConfig({ SVC_ENTERPRISE_CLOUD_TENANT_ID: '' }, dir()).auth.enterpriseCloudTenantId).toBe('common');
    for (const ok of ['organizations', 'consumers', 'contoso.onmicrosoft.com', '0b3c1a52-3f7e-4b4c-9a55-3f6c1c9e2a11']) {
      expect(loadConfig({ SVC_ENTERPRISE_CLOUD_TENANT_ID: ok }, dir()).auth.enterpriseCloudTenantId).toBe(ok);
    }
    expect(failure({ SVC_ENTERPRISE_CLOUD_TENANT_ID: 'not a tenant!' })).toMatch(/^SVC_ENTERPRISE_CLOUD_TENANT_ID: /);
  });
});

describe('hashing policy at start-up (SPEC "Password hashing rules" 3 and 4, "Errors")', () => {
  it('fails fast on an unknown algorithm, naming the variable', () => {
    expect(failure({ SVC_AUTH_PASSWORD_ALGORITHM: 'scrypt' })).toMatch(/^SVC_AUTH_PASSWORD_ALGORITHM \(auth.password.algorithm\): .*scrypt/);
  });
  it('fails fast on a bcrypt cost outside 10 to 31, even from the file', () => {
    expect(failure({ SVC_AUTH_PASSWORD_BCRYPT_COST: '9' })).toMatch(/^SVC_AUTH_PASSWORD_BCRYPT_COST \(auth.password.bcrypt.cost\)/);
    expect(failure({ SVC_AUTH_PASSWORD_BCRYPT_COST: '32', SVC_AUTH_PASSWORD_ALGORITHM: 'bcrypt' })).toMatch(/^SVC_AUTH_PASSWORD_BCRYPT_COST/);
    expect(failure({}, withFile('auth:\n  password:\n    algorithm: bcrypt\n    bcrypt:\n      cost: 40\n'))).toMatch(/bcrypt.cost/);
  });
  it('fails fast on argon2id memory below 8192 KiB', () => {
    expect(failure({ SVC_AUTH_PASSWORD_ARGON2_MEMORY: '8191' })).toMatch(/^SVC_AUTH_PASSWORD_ARGON2_MEMORY \(auth.password.argon2.memory\)/);
  });
  it('accepts valid values below the recommended floors with a warning', () => {
    const config = loadConfig(
      { SVC_AUTH_PASSWORD_ARGON2_MEMORY: '8192', SVC_AUTH_PASSWORD_ARGON2_TIME: '1', SVC_AUTH_PASSWORD_ARGON2_SALT_LENGTH: '8' },
      dir(),
    );
    expect(config.auth.password.argon2.memory).toBe(8192);
    expect(config.warnings.some((w) => w.startsWith('SVC_AUTH_PASSWORD_ARGON2_MEMORY'))).toBe(true);
    expect(config.warnings.some((w) => w.startsWith('SVC_AUTH_PASSWORD_ARGON2_SALT_LENGTH'))).toBe(true);
  });
  it('never falls back silently: the bcrypt policy is used as configured', () => {
    expect(loadConfig({ SVC_AUTH_PASSWORD_ALGORITHM: 'bcrypt', SVC_AUTH_PASSWORD_BCRYPT_COST: '10' }, dir()).auth.password).toMatchObject({
      algorithm: 'bcrypt',
      bcrypt: { cost: 10 },
    });
  });
});

describe('docs/configuration.md', () => {
  it('holds the settings table generated from the declarations (UPDATE_DOCS=1 rewrites it)', () => {
    const path = new URL('../../../docs/configuration.md', import.meta.url);
    const docs = readFileSync(path, 'utf8');
    const start = docs.indexOf(SETTINGS_START);
    const end = docs.indexOf(SETTINGS_END);
    expect(start).toBeGreaterThan(0);
    const expected = `${SETTINGS_START}\n${renderSettingsTable()}\n${SETTINGS_END}`;
    const actual = docs.slice(start, end + SETTINGS_END.length);
    if (updateSwitch('UPDATE_DOCS') && actual !== expected) writeFileSync(path, docs.replace(actual, expected));
    else expect(actual, 'docs/configuration.md is out of date: run UPDATE_DOCS=1 npx vitest run test/daemon/config').toBe(expected);
  });
});
