import { sql, type Kysely } from 'kysely';

/**
 * Access control: invitations, membership requests and e-mail verification tokens, plus the
 * indexes the audit log and token listing page through.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    // Only the SHA-256 of the invitation token is kept; the link is the credential.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by_uid', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by_uid', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitations_org_uid').on('invitations').columns(['organization_uid', 'uid']).execute();

  await db.schema
    .createTable('membership_requests')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('message', 'text')
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('decided_by_uid', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('decided_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('membership_requests_org_uid').on('membership_requests').columns(['organization_uid', 'uid']).execute();
  // At most one open request per person and organization, so asking twice cannot flood admins.
  await db.schema
    .createIndex('membership_requests_pending')
    .on('membership_requests')
    .columns(['organization_uid', 'user_uid'])
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('email_verifications')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    // The address the link proves; it only verifies while it is still the account's address.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_verifications_user').on('email_verifications').column('user_uid').execute();

  await db.schema.createIndex('audit_log_org_kind_uid').on('audit_log').columns(['organization_uid', 'kind', 'uid']).execute();
  await db.schema.createIndex('personal_tokens_org_user').on('personal_tokens').columns(['organization_uid', 'user_uid']).execute();
  await db.schema.createIndex('members_org_role').on('members').columns(['organization_uid', 'role']).execute();
}
