import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/config.js';
import { ConfigError } from '../../../daemon/config/config-error.js';

const dir = () => mkdtempSync(join(tmpdir(), 'svc-config-'));
const BASE = { SVC_LDAP_URL: 'ldaps://ldap.example.com', SVC_LDAP_USER_BASE: 'ou=people,dc=example,dc=com' };
const failure = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env, dir());
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

describe('LDAP configuration', () => {
  it('is off without SVC_LDAP_URL, and has the documented defaults with it', () => {
    expect(loadConfig({}, dir()).auth.ldap).toBeUndefined();
    expect(loadConfig(BASE, dir()).auth.ldap).toEqual({
      url: 'ldaps://ldap.example.com',
      userBase: 'ou=people,dc=example,dc=com',
      userFilter: '(mail={email})',
      groupFilter: '(member={dn})',
      startTls: false,
      timeoutSeconds: 5,
      bindDn: undefined,
      bindPassword: undefined,
      groupBase: undefined,
      ca: undefined,
    });
  });

  it('refuses a half or unsafe configuration, naming the setting and never the bind password', () => {
    expect(failure({ SVC_LDAP_URL: 'ldaps://ldap.example.com' })).toContain('SVC_LDAP_USER_BASE');
    expect(failure({ ...BASE, SVC_LDAP_URL: 'http://ldap.example.com' })).toContain('SVC_LDAP_URL');
    expect(failure({ ...BASE, SVC_LDAP_USER_FILTER: '(uid=*)' })).toContain('{email}');
    expect(failure({ ...BASE, SVC_LDAP_GROUP_FILTER: '(member=*)' })).toContain('{dn}');
    expect(failure({ ...BASE, SVC_LDAP_STARTTLS: 'true' })).toContain('SVC_LDAP_STARTTLS');
    expect(failure({ ...BASE, SVC_LDAP_CA_FILE: '/nonexistent/ca.pem', SVC_LDAP_BIND_PASSWORD: 'hunter2-secret' })).not.toContain('hunter2-secret');
  });

  it('reads the CA file and warns about plain ldap:// without StartTLS', () => {
    const ca = join(dir(), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(loadConfig({ ...BASE, SVC_LDAP_CA_FILE: ca }, dir()).auth.ldap?.ca).toContain('BEGIN CERTIFICATE');
    const plain = loadConfig({ ...BASE, SVC_LDAP_URL: 'ldap://ldap.example.com' }, dir());
    expect(plain.warnings.some((w) => w.includes('unencrypted'))).toBe(true);
  });
});
