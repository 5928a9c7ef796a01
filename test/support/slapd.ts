import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, requireProgram, selfSignedCertificate, spawnServer, tempDir, type PrivateServer, type ServerAvailability } from './local-servers.js';

/** The suffix of the private directory. */
export const LDAP_SUFFIX = 'dc=example,dc=com';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_SUFFIX}`;

/** A person of the private directory. */
export interface LdapPerson {
  uid: string;
  mail: string;
  password: string;
  name: string;
}

/** Whether Debian's slapd (and slapadd) are installed; fails under CI=true when not. */
export const slapdAvailable = (): ServerAvailability => requireProgram('/usr/sbin/slapd');

/**
 * A private OpenLDAP server on a free loopback port: its own slapd.conf (mdb backend) and data
 * folder, loaded with `people` under ou=people and `groups` (groupOfNames, by member DN) under
 * ou=groups, offering StartTLS with a self-signed certificate (`caFile`). The service account is
 * the directory's root DN with `adminPassword`.
 */
export async function startPrivateSlapd(
  adminPassword: string,
  people: LdapPerson[],
  groups: Record<string, string[]>,
): Promise<PrivateServer & { url: string; caFile: string }> {
  const dir = tempDir('svc-slapd-');
  mkdirSync(join(dir, 'data'));
  // A self-signed certificate for StartTLS; it is its own CA.
  const { cert, key } = selfSignedCertificate(dir);
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      `TLSCertificateFile ${cert}`,
      `TLSCertificateKeyFile ${key}`,
      'moduleload back_mdb',
      `pidfile ${join(dir, 'slapd.pid')}`,
      'database mdb',
      'maxsize 16777216',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${LDAP_ADMIN_DN}"`,
      `rootpw ${adminPassword}`,
      `directory ${join(dir, 'data')}`,
      'access to attrs=userPassword by anonymous auth by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  const dn = (uid: string) => `uid=${uid},ou=people,${LDAP_SUFFIX}`;
  const entries = [
    `dn: ${LDAP_SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example`,
    `dn: ou=people,${LDAP_SUFFIX}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${LDAP_SUFFIX}\nobjectClass: organizationalUnit\nou: groups`,
    ...people.map(
      (p) =>
        `dn: ${dn(p.uid)}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.name}\nsn: ${p.name}\ndisplayName: ${p.name}\nmail: ${p.mail}\nuserPassword: ${p.password}`,
    ),
    ...Object.entries(groups).map(
      ([cn, members]) => `dn: cn=${cn},ou=groups,${LDAP_SUFFIX}\nobjectClass: groupOfNames\ncn: ${cn}\n${members.map((m) => `member: ${dn(m)}`).join('\n')}`,
    ),
  ];
  const ldif = join(dir, 'data.ldif');
  writeFileSync(ldif, `${entries.join('\n\n')}\n`);
  const loaded = spawnSync('/usr/sbin/slapadd', ['-f', conf, '-l', ldif], { encoding: 'utf8' });
  if (loaded.status !== 0) throw new Error(`slapadd failed: ${loaded.stderr}`);
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const server = await spawnServer('/usr/sbin/slapd', ['-d', '0', '-h', `${url}/`, '-f', conf], port, dir);
  return { ...server, url, caFile: cert };
}
