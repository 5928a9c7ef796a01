import type { Kysely } from 'kysely';

/**
 * Notification delivery: the channels a check chooses, the organization's default channels, and
 * the durable outbox of messages (written in the same transaction as the incident change, then
 * delivered, retried and logged by the dispatcher of whichever daemon leases them).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notification_channels')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('check_channels')
    .addColumn('check_uid', 'text', (c) => c.notNull().references('checks.uid').onDelete('cascade'))
    .addColumn('channel_uid', 'text', (c) => c.notNull().references('notification_channels.uid').onDelete('cascade'))
    .addColumn('organization_uid', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('check_channels_pk', ['check_uid', 'channel_uid'])
    .execute();

  await db.schema
    .createTable('notification_outbox')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uid', 'text', (c) => c.notNull().references('organizations.uid').onDelete('cascade'))
    // Null for a member's personal e-mail, which goes to `recipient`.
    .addColumn('channel_uid', 'text', (c) => c.references('notification_channels.uid').onDelete('cascade'))
    .addColumn('channel_type', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text')
    .addColumn('incident_uid', 'text')
    .addColumn('check_uid', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('last_response_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The dispatcher's question: what is pending and due.
  await db.schema.createIndex('notification_outbox_due').on('notification_outbox').columns(['status', 'next_attempt_at']).execute();
  // A channel's delivery log, newest first.
  await db.schema.createIndex('notification_outbox_channel').on('notification_outbox').columns(['channel_uid', 'uid']).execute();
  // Ordering: an earlier message about the same incident still pending holds back later ones.
  await db.schema.createIndex('notification_outbox_incident').on('notification_outbox').columns(['incident_uid', 'status', 'uid']).execute();
  // Flapping: what was recently sent about a check.
  await db.schema.createIndex('notification_outbox_check').on('notification_outbox').columns(['check_uid', 'event', 'created_at']).execute();
}
