import type { Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database tables. The same schema runs on SQLite and PostgreSQL, so it keeps to types both
 * share: timestamps are ISO-8601 UTC text (they sort and compare as text), booleans are 0/1
 * integers, JSON is text.
 */
export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  sessions: SessionsTable;
  parameters: ParametersTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
  personal_tokens: PersonalTokensTable;
}

export type Flag = 0 | 1;

export interface UsersTable {
  uid: string;
  /** Stored lower-cased, so uniqueness is case-insensitive. */
  email: string;
  name: string;
  password_hash: string | null;
  email_verified: Flag;
  super_admin: Flag;
  must_change_password: Flag;
  created_at: string;
  updated_at: string;
}

export interface OrganizationsTable {
  uid: string;
  slug: string;
  name: string;
  /** Null means unlimited. */
  member_limit: number | null;
  created_at: string;
}

export interface MembersTable {
  organization_uid: string;
  user_uid: string;
  role: 'owner' | 'admin' | 'user' | 'viewer';
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the session id carried in the token. */
  id_hash: string;
  /** A public handle for listing and revoking, never usable as a credential. */
  uid: string;
  user_uid: string;
  method: string;
  client_address: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ParametersTable {
  uid: string;
  /** Null for system-wide parameters. */
  organization_uid: string | null;
  key: string;
  /** JSON text of the form {"value": ...}. */
  value: string;
  updated_at: string;
}

export interface AuditLogTable {
  /** Time-ordered (see newId), so it doubles as the pagination cursor. */
  uid: string;
  organization_uid: string;
  kind: string;
  actor_uid: string | null;
  target_uid: string | null;
  /** JSON text. */
  data: string;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  count: number;
}

export interface PersonalTokensTable {
  uid: string;
  token_hash: string;
  user_uid: string;
  organization_uid: string;
  name: string;
  /** JSON array of scopes. */
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Organization = Selectable<OrganizationsTable>;
export type Member = Selectable<MembersTable>;
export type Session = Selectable<SessionsTable>;
export type Role = MembersTable['role'];
