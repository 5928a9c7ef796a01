import { sql, type Kysely } from 'kysely';

/**
 * External sign-in and two-factor: pending OAuth authorizations, hand-off codes, identities
 * linked to accounts, TOTP on users with recovery codes and used time steps, and the link of an
 * organization to a team-chat workspace.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per authorization in flight; deleted when the provider comes back (single use).
  await db.schema
    .createTable('oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text')
    .addColumn('nonce', 'text')
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('user_uid', 'text', (c) => c.references('users.uid').onDelete('cascade'))
    .addColumn('organization_uid', 'text', (c) => c.references('organizations.uid').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_states_expires').on('oauth_states').column('expires_at').execute();

  // Only the SHA-256 of a hand-off code is kept; consumed_at makes the exchange single-use.
  await db.schema
    .createTable('handoff_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text')
    .execute();
  await db.schema.createIndex('handoff_codes_expires').on('handoff_codes').column('expires_at').execute();

  await db.schema
    .createTable('linked_identities')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('linked_identities_pk', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('linked_identities_user').on('linked_identities').column('user_uid').execute();

  // The confirmed secret enables 2FA; the pending one waits for its first code.
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'text').execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_uid').execute();

  // A TOTP code is accepted once: the primary key refuses a second use of the same step.
  await db.schema
    .createTable('totp_used_steps')
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('step', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('totp_used_steps_pk', ['user_uid', 'step'])
    .execute();

  await db.schema
    .createTable('workspace_links')
    .addColumn('organization_uid', 'text', (c) => c.primaryKey().references('organizations.uid').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('workspace_name', 'text')
    .addColumn('linked_by', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('removed_at', 'text')
    .execute();
  await db.schema
    .createIndex('workspace_links_workspace')
    .on('workspace_links')
    .columns(['provider', 'workspace_id'])
    .where(sql.ref('removed_at'), 'is', null)
    .execute();
}
