import type { Kysely } from 'kysely';

/**
 * Status-page updates (what the page's owner posts: investigating, identified, monitoring,
 * resolved, maintenance) with the checks they name; the page's e-mail subscribers; and the
 * durable outbox of their mail (confirmations and updates), leased and retried like the
 * notification outbox. Tokens are stored as SHA-256 hashes only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('status_page_updates')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('status_page_uid', 'text', (c) => c.notNull().references('status_pages.uid').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .execute();
  // A page's updates, newest first.
  await db.schema.createIndex('status_page_updates_page').on('status_page_updates').columns(['status_page_uid', 'uid']).execute();

  await db.schema
    .createTable('status_page_update_checks')
    .addColumn('update_uid', 'text', (c) => c.notNull().references('status_page_updates.uid').onDelete('cascade'))
    .addColumn('check_uid', 'text', (c) => c.notNull().references('checks.uid').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('status_page_update_checks_pk', ['update_uid', 'check_uid'])
    .execute();

  await db.schema
    .createTable('status_page_subscribers')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('status_page_uid', 'text', (c) => c.notNull().references('status_pages.uid').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    // The address lower-cased: one subscription per address and page.
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('confirm_token_hash', 'text')
    .addColumn('confirm_sent_at', 'text')
    .addColumn('confirmed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('status_page_subscribers_address', ['status_page_uid', 'email_key'])
    .execute();
  await db.schema.createIndex('status_page_subscribers_confirm').on('status_page_subscribers').column('confirm_token_hash').execute();

  // One unsubscribe token per mail sent: the link of any mail keeps working while the subscription lasts.
  await db.schema
    .createTable('status_page_unsubscribe_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('subscriber_uid', 'text', (c) => c.notNull().references('status_page_subscribers.uid').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('status_page_mail')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('subscriber_uid', 'text', (c) => c.notNull().references('status_page_subscribers.uid').onDelete('cascade'))
    // 'confirmation' or 'message'.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('status_page_mail_due').on('status_page_mail').columns(['status', 'next_attempt_at']).execute();
}
