import type { Kysely } from 'kysely';

/**
 * The organization's monitoring resources: checks and their labels, incidents, status pages,
 * notification channels and each member's own notification settings.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('checks')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('thresholds', 'text', (c) => c.notNull())
    // The labels are also kept here as one JSON map so a page of checks reads without a join;
    // check_labels is their indexed copy for filtering.
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Imports and the API find a check by (organization, slug); the upsert conflicts on it.
  await db.schema.createIndex('checks_org_slug').on('checks').columns(['organization_uid', 'slug']).unique().execute();
  // Listing pages through an organization's checks in uid (creation) order, optionally by type.
  await db.schema.createIndex('checks_org_uid').on('checks').columns(['organization_uid', 'uid']).execute();
  await db.schema.createIndex('checks_org_type_uid').on('checks').columns(['organization_uid', 'type', 'uid']).execute();

  await db.schema
    .createTable('check_labels')
    .addColumn('check_uid', 'text', (c) => c.notNull().references('checks.uid').onDelete('cascade'))
    .addColumn('organization_uid', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('check_labels_pk', ['check_uid', 'key'])
    .execute();
  // `?label=k=v` walks this index in check order, so a filtered page is an index range scan.
  await db.schema.createIndex('check_labels_org_key_value').on('check_labels').columns(['organization_uid', 'key', 'value', 'check_uid']).execute();

  await db.schema
    .createTable('incidents')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // The check it is about; the slug is kept too so the incident still names a deleted check.
    .addColumn('check_uid', 'text', (c) => c.references('checks.uid').onDelete('set null'))
    .addColumn('check_slug', 'text')
    .addColumn('opened_by', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('acknowledged_at', 'text')
    .addColumn('acknowledged_by', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text', (c) => c.references('users.uid').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incidents_org_uid').on('incidents').columns(['organization_uid', 'uid']).execute();
  await db.schema.createIndex('incidents_org_status_uid').on('incidents').columns(['organization_uid', 'status', 'uid']).execute();
  await db.schema.createIndex('incidents_check').on('incidents').column('check_uid').execute();

  await db.schema
    .createTable('status_pages')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('public', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('status_pages_org_slug').on('status_pages').columns(['organization_uid', 'slug']).unique().execute();

  // A page lists checks by reference, so renaming a check keeps it on the page and deleting
  // one takes it off.
  await db.schema
    .createTable('status_page_checks')
    .addColumn('status_page_uid', 'text', (c) => c.notNull().references('status_pages.uid').onDelete('cascade'))
    .addColumn('check_uid', 'text', (c) => c.notNull().references('checks.uid').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('status_page_checks_pk', ['status_page_uid', 'check_uid'])
    .execute();
  await db.schema.createIndex('status_page_checks_check').on('status_page_checks').column('check_uid').execute();

  await db.schema
    .createTable('notification_channels')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // Holds the channel's secrets (webhook URLs, tokens) in clear: delivery must read them back.
    // The API only ever answers them masked.
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notification_channels_org_uid').on('notification_channels').columns(['organization_uid', 'uid']).execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    .addColumn('user_uid', 'text', (c) => c.notNull().references('users.uid').onDelete('cascade'))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_settings_pk', ['organization_uid', 'user_uid'])
    .execute();
}
