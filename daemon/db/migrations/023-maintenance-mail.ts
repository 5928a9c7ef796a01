import type { Kysely } from 'kysely';

/**
 * The maintenance mail sent to a status page's subscribers: one row per page, window, occurrence
 * and kind ('scheduled' a day before, 'started' when it begins). Its primary key makes the mail
 * go out once, however many daemons look: the row is inserted (or ignored) in the transaction
 * that queues the mail.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('status_page_maintenance_mail')
    .addColumn('status_page_uid', 'text', (c) => c.notNull().references('status_pages.uid').onDelete('cascade'))
    .addColumn('window_uid', 'text', (c) => c.notNull().references('maintenance_windows.uid').onDelete('cascade'))
    .addColumn('occurrence_start', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('status_page_maintenance_mail_pk', ['status_page_uid', 'window_uid', 'occurrence_start', 'kind'])
    .execute();
  // Pruning by age.
  await db.schema.createIndex('status_page_maintenance_mail_start').on('status_page_maintenance_mail').column('occurrence_start').execute();
}
