import type { Kysely } from 'kysely';

/** The latest state changes of an organization (the overview) read newest first from an index. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('check_state_changes_organization').on('check_state_changes').columns(['organization_uid', 'uid']).execute();
}
