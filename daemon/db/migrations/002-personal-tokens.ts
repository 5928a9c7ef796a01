import type { Kysely } from 'kysely';

/** Personal access tokens: stored only as SHA-256, bound to one organization. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('personal_tokens')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('personal_tokens_user').on('personal_tokens').column('user_uid').execute();
}
