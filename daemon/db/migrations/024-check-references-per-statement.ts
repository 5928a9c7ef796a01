import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** The tables an import fills in bulk whose `check_uid` refers to checks.uid, on delete cascade. */
const BULK_CHILDREN = ['check_labels', 'check_import_baselines'] as const;

/**
 * PostgreSQL checks a foreign key row by row: every inserted row queues a trigger event that
 * looks up and locks its check. An import of 10,000 monitors writes about 40,000 label rows and
 * 10,000 baselines, and those checks were a third of the labels' insert time and a fifth of the
 * baselines' (docs/import.md, "Fewer parameters, references checked once per statement").
 *
 * On PostgreSQL the references from check_labels and check_import_baselines to checks become two
 * statement-level triggers each, with the foreign key's meaning:
 * - after an insert, the checks the new rows name are locked (`for key share`, as the foreign
 *   key locks them, so that no check is deleted under a row being written, even by a transaction
 *   that does not write the check itself), and a statement that names a check that does not
 *   exist fails with a foreign-key violation;
 * - after checks are deleted, their rows are deleted (the cascade).
 * `check_uid` is never updated in either table (rows are inserted, deleted, or have their other
 * columns updated), so no update needs checking. SQLite keeps its foreign keys: they cost little
 * there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const child of BULK_CHILDREN) {
    const table = sql.table(child);
    const refuse = sql.id(`${child}_name_checks`);
    const cascade = sql.id(`${child}_of_deleted_checks`);
    const violation = sql.lit(`${child}.check_uid names a check that does not exist`);
    await sql`alter table ${table} drop constraint ${sql.id(`${child}_check_uid_fkey`)}`.execute(db);
    await sql`create function ${refuse}() returns trigger language plpgsql as $$
      declare
        named bigint;
        found bigint;
      begin
        select count(distinct check_uid) into named from inserted;
        select count(*) into found from (select 1 from checks where uid in (select check_uid from inserted) for key share) as locked;
        if found <> named then
          raise foreign_key_violation using message = ${violation};
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ${refuse} after insert on ${table}
      referencing new table as inserted for each statement execute function ${refuse}()`.execute(db);
    await sql`create function ${cascade}() returns trigger language plpgsql as $$
      begin
        delete from ${table} where check_uid in (select uid from deleted);
        return null;
      end $$`.execute(db);
    await sql`create trigger ${cascade} after delete on checks
      referencing old table as deleted for each statement execute function ${cascade}()`.execute(db);
  }
}
