import type { Kysely } from 'kysely';

/**
 * Password reset links. Only the SHA-256 of a link's token is kept. `email` is the address the
 * link was mailed to: an e-mail change after the request voids it, since the link went to an
 * address the account no longer has. `used_at` is set when the link is used or voided by a newer
 * one, which makes it single-use.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('requested_by_uid', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('password_resets_user').on('password_resets').column('user_uid').execute();
}
