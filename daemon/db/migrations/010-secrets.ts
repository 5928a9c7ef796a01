import type { Kysely } from 'kysely';

/**
 * Organization secrets: values that checks refer to as `{{secrets.NAME}}`. `value` is always a
 * keyring ciphertext. The secrets stored in clear before this migration (TOTP secrets, channel
 * settings) are encrypted at start-up right after migrating (daemon/secrets/seal-at-rest.ts),
 * because a migration cannot reach the key; values already encrypted are recognised by their
 * prefix, so that step runs once per value however often the daemon starts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('org_secrets')
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_secrets_pk', ['organization_uid', 'name'])
    .execute();
}
