import type { Kysely } from 'kysely';

/**
 * Maintenance windows: a time span (once, or repeated by an RFC 5545 RRULE in a time zone) during
 * which the checks it covers keep running but open no incident and notify nobody. A window covers
 * the checks named in maintenance_window_checks, every check whose labels hold all of its labels,
 * or every check of the organization.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('maintenance_windows')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // The first occurrence, ISO-8601 UTC; its length is the length of every occurrence.
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    // An RRULE without DTSTART (the start is starts_at in the time zone), or null for once.
    .addColumn('recurrence', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('all_checks', 'integer', (c) => c.notNull())
    // JSON map: a check whose labels hold every pair is covered.
    .addColumn('labels', 'text', (c) => c.notNull())
    // The import source that made it (a re-run of that source replaces its windows), or null.
    .addColumn('import_source', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The result writer reads an organization's windows that have begun by a time.
  await db.schema.createIndex('maintenance_windows_org_start').on('maintenance_windows').columns(['organization_uid', 'starts_at']).execute();

  await db.schema
    .createTable('maintenance_window_checks')
    .addColumn('window_uid', 'text', (c) => c.notNull().references('maintenance_windows.uid').onDelete('cascade'))
    .addColumn('check_uid', 'text', (c) => c.notNull().references('checks.uid').onDelete('cascade'))
    .addPrimaryKeyConstraint('maintenance_window_checks_pk', ['window_uid', 'check_uid'])
    .execute();
  await db.schema.createIndex('maintenance_window_checks_check').on('maintenance_window_checks').columns(['check_uid', 'window_uid']).execute();
}
