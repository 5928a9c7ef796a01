import { isIP } from 'node:net';
import type { LdapConfig } from '../../config/ldap-config.js';
import { fillFilter } from './ldap-filter.js';

/** Someone the directory vouched for: they bound with their own password. */
export interface DirectoryUser {
  /** A stable identifier: the entry's `entryUUID` where the server has one, else its DN. */
  subject: string;
  dn: string;
  /** The entry's `mail` that equals the address signed in with (the directory's, so verified). */
  email: string;
  name: string;
  /** The `cn` of each group the user is a member of. */
  groups: string[];
}

/** The directory could not be reached or answered with an error other than wrong credentials. */
export class DirectoryUnavailable extends Error {}

const attribute = (entry: Record<string, unknown>, name: string): string[] => {
  const found = Object.entries(entry).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  if (found === undefined) return [];
  return (Array.isArray(found) ? found : [found]).map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
};

/**
 * Checks an e-mail address and password against the directory: the service account finds the
 * one entry of the address (the address escaped into the filter), then a fresh connection binds
 * as that entry with the password, and the service account reads the entry's groups. Undefined
 * for no entry, more than one entry, an entry whose `mail` is not the address, or a wrong
 * password. Every connection and operation times out. The password is only ever sent in the bind.
 */
export async function authenticateInDirectory(config: LdapConfig, email: string, password: string): Promise<DirectoryUser | undefined> {
  // An empty password would be an unauthenticated bind, which servers accept: never a sign-in.
  if (password === '') return undefined;
  const { Client, InvalidCredentialsError } = await import('ldapts');
  const host = new URL(config.url).hostname.replace(/^\[|\]$/g, '');
  // The certificate is checked against the URL's host (a name, or an IP address in its SANs).
  const tlsOptions = { host, ...(isIP(host) ? {} : { servername: host }), ...(config.ca ? { ca: config.ca } : {}) };
  const connect = async () => {
    // ldapts speaks TLS from the start whenever tlsOptions are given: only for ldaps://.
    const secure = config.url.toLowerCase().startsWith('ldaps:');
    const client = new Client({
      url: config.url,
      timeout: config.timeoutSeconds * 1000,
      connectTimeout: config.timeoutSeconds * 1000,
      ...(secure ? { tlsOptions } : {}),
    });
    if (config.startTls) await client.startTLS({ ...tlsOptions });
    return client;
  };
  const service = await connect().catch(unavailable);
  try {
    if (config.bindDn) await service.bind(config.bindDn, config.bindPassword ?? '').catch(unavailable);
    const filter = fillFilter(config.userFilter, { email });
    const { searchEntries } = await service
      .search(config.userBase, { scope: 'sub', filter, attributes: ['mail', 'cn', 'displayName', 'entryUUID'], sizeLimit: 2 })
      .catch(unavailable);
    if (searchEntries.length !== 1) return undefined;
    const entry = searchEntries[0];
    const mail = attribute(entry, 'mail').find((m) => m.trim().toLowerCase() === email);
    if (!mail) return undefined;

    const asUser = await connect().catch(unavailable);
    try {
      await asUser.bind(entry.dn, password);
    } catch (error) {
      if (error instanceof InvalidCredentialsError) return undefined;
      unavailable(error);
    } finally {
      await asUser.unbind().catch(() => undefined);
    }

    let groups: string[] = [];
    if (config.groupBase) {
      const found = await service
        .search(config.groupBase, { scope: 'sub', filter: fillFilter(config.groupFilter, { dn: entry.dn }), attributes: ['cn'], sizeLimit: 1000 })
        .catch(unavailable);
      groups = found.searchEntries.flatMap((group) => attribute(group, 'cn'));
    }
    return {
      subject: attribute(entry, 'entryUUID')[0] ?? entry.dn,
      dn: entry.dn,
      email,
      name: attribute(entry, 'displayName')[0] ?? attribute(entry, 'cn')[0] ?? '',
      groups,
    };
  } finally {
    await service.unbind().catch(() => undefined);
  }
}

/** Rethrows a directory failure without its details (they may hold DNs; never the password). */
function unavailable(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  throw new DirectoryUnavailable(
    `LDAP directory error${typeof code === 'number' || typeof code === 'string' ? ` (${code})` : ''}: ${(error as Error)?.name ?? 'unknown'}`,
  );
}
