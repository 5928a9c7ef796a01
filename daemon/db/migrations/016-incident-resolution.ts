import type { Kysely } from 'kysely';

/** Why the system resolved an incident: the check recovered, or it was paused or deleted. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incidents').addColumn('resolution', 'text').execute();
  await db.updateTable('incidents').set({ resolution: 'recovered' }).where('resolved_by_system', '=', 1).execute();
}
