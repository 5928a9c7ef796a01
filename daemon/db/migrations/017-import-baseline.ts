import type { Kysely } from 'kysely';

/**
 * What the last import set on each check it wrote: the source and the definition it gave. A
 * re-run compares the source's new definition with this one, field by field, so that it
 * changes only what changed in the source and keeps what a person changed here since.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('check_import_baselines')
    .addColumn('check_uid', 'text', (c) => c.primaryKey().references('checks.uid').onDelete('cascade'))
    .addColumn('organization_uid', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    // The definition as canonical JSON (keys sorted), slug included.
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .execute();
}
