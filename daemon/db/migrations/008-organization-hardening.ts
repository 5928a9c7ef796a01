import type { Kysely } from 'kysely';

/**
 * The server's own audit log, for events that outlive an organization or stand above one: an
 * organization's deletion (its own log goes with it) and a super admin's grant of ownership.
 * No foreign keys: an entry must survive the deletion of the accounts and organizations it names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('system_audit_log')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_uid', 'text')
    .addColumn('target_uid', 'text')
    .addColumn('organization_uid', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('system_audit_log_kind_uid').on('system_audit_log').columns(['kind', 'uid']).execute();
}
