import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import type { SettingName } from './settings.js';

/** The LDAP directory that password sign-in falls back to. */
export interface LdapConfig {
  url: string;
  bindDn?: string;
  /** Never logged, stored or echoed. */
  bindPassword?: string;
  userBase: string;
  userFilter: string;
  groupBase?: string;
  groupFilter: string;
  startTls: boolean;
  /** PEM certificate authorities trusted for the directory's TLS certificate (instead of the system's). */
  ca?: string;
  timeoutSeconds: number;
}

type Get = (name: SettingName) => unknown;

/** The LDAP settings, or undefined when `SVC_LDAP_URL` is unset; a half configuration fails start-up. */
export function ldapConfig(get: Get, warnings: string[]): LdapConfig | undefined {
  const url = get('ldapUrl') as string | undefined;
  if (!url) {
    if (get('ldapUserBase') || get('ldapBindDn')) warnings.push('LDAP settings are set but SVC_LDAP_URL is not; LDAP sign-in stays disabled');
    return undefined;
  }
  if (!/^ldaps?:\/\/[^/]/i.test(url)) throw new ConfigError('SVC_LDAP_URL: invalid value: expected ldap://host[:port] or ldaps://host[:port]');
  const userBase = get('ldapUserBase') as string | undefined;
  if (!userBase) throw new ConfigError('SVC_LDAP_USER_BASE: required when SVC_LDAP_URL is set');
  const userFilter = get('ldapUserFilter') as string;
  if (!userFilter.includes('{email}')) throw new ConfigError('SVC_LDAP_USER_FILTER: invalid value: must contain {email}');
  const groupFilter = get('ldapGroupFilter') as string;
  if (!groupFilter.includes('{dn}')) throw new ConfigError('SVC_LDAP_GROUP_FILTER: invalid value: must contain {dn}');
  const startTls = get('ldapStartTls') as boolean;
  if (startTls && /^ldaps:/i.test(url)) throw new ConfigError('SVC_LDAP_STARTTLS: an ldaps:// connection is already encrypted; use ldap:// with StartTLS');
  if (!startTls && /^ldap:/i.test(url))
    warnings.push('SVC_LDAP_URL is plain ldap:// without SVC_LDAP_STARTTLS: directory passwords cross the network unencrypted');
  const caFile = get('ldapCaFile') as string | undefined;
  let ca: string | undefined;
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch {
      throw new ConfigError(`SVC_LDAP_CA_FILE: cannot read ${caFile}`);
    }
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new ConfigError(`SVC_LDAP_CA_FILE: ${caFile} holds no PEM certificate`);
  }
  return {
    url,
    ca,
    bindDn: (get('ldapBindDn') as string | undefined) || undefined,
    bindPassword: (get('ldapBindPassword') as string | undefined) || undefined,
    userBase,
    userFilter,
    groupBase: (get('ldapGroupBase') as string | undefined) || undefined,
    groupFilter,
    startTls,
    timeoutSeconds: get('ldapTimeout') as number,
  };
}
