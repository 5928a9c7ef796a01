import type { Profile } from '@node-saml/node-saml';

/** The attribute names identity providers commonly use, in order of preference. */
const EMAIL = ['email', 'mail', 'emailAddress', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const NAME = [
  'displayName',
  'name',
  'cn',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'urn:oid:2.5.4.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
];
const GROUPS = ['groups', 'memberOf', 'isMemberOf', 'urn:oid:1.3.6.1.4.1.5923.1.5.1.1', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'];
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Who a verified assertion names: its subject, e-mail address, display name and groups. */
export interface SamlIdentity {
  subject: string;
  email?: string;
  name: string;
  groups: string[];
}

const strings = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value])
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter(Boolean);

/** Maps a verified profile's attributes to e-mail, name and groups (the first attribute present of each). */
export function samlIdentity(profile: Profile): SamlIdentity {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const first = (names: string[]) => names.map((n) => strings(attributes[n])).find((v) => v.length > 0) ?? [];
  const email = first(EMAIL)[0] ?? (profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : undefined);
  return {
    subject: profile.nameID,
    email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email.toLowerCase() : undefined,
    name: first(NAME)[0] ?? '',
    groups: first(GROUPS).slice(0, 200),
  };
}
