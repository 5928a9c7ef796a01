import { sql, type Selectable } from 'kysely';
import type { Flag, User, UserProfile, UsersTotpColumns } from '../db/schema.js';

/**
 * The caller's account as every request reads it: whether a password and two-factor sign-in are
 * set, never the password hash or the second-factor secret. The few routes that check a
 * password or a code read those themselves.
 */
export interface CallerAccount extends UserProfile {
  has_password: Flag;
  two_factor_enabled: Flag;
}

/** The columns a credential's read selects to bring the caller's account along. */
export const CALLER_ACCOUNT_COLUMNS = [
  'users.uid',
  'users.email',
  'users.name',
  'users.email_verified',
  'users.super_admin',
  'users.must_change_password',
  'users.created_at',
  'users.updated_at',
  sql<Flag>`case when users.password_hash is null then 0 else 1 end`.as('has_password'),
  sql<Flag>`case when users.totp_secret is null then 0 else 1 end`.as('two_factor_enabled'),
] as const;

/**
 * The caller view of a full account row (read with all its columns, as sign-in and account
 * changes do), for the response that shows the account.
 */
export function callerAccount(row: User & Partial<Selectable<UsersTotpColumns>>): CallerAccount {
  const { password_hash, totp_secret, totp_pending_secret: _pending, totp_enabled_at: _enabledAt, ...profile } = row;
  return { ...profile, has_password: password_hash === null ? 0 : 1, two_factor_enabled: totp_secret == null ? 0 : 1 };
}
