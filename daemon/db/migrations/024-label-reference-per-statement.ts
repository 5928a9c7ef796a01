import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL checks a foreign key row by row: every inserted row queues a trigger event that
 * looks up and locks its check. An import of 10,000 monitors writes about 40,000 label rows, and
 * with their rows sent as arrays those checks were a third of the labels' insert time
 * (docs/import.md, "Label rows checked once per statement").
 *
 * On PostgreSQL the reference from check_labels to checks becomes two statement-level triggers
 * with the foreign key's meaning:
 * - after an insert, the checks the new rows name are locked (`for key share`, as the foreign
 *   key locks them, so that no check is deleted under a label being written), and a statement
 *   that names a check that does not exist fails with a foreign-key violation;
 * - after checks are deleted, their labels are deleted (the cascade).
 * A label's `check_uid` is never updated (labels are inserted and deleted), so no update needs
 * checking. SQLite keeps its foreign key: it costs little there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const violation = sql.lit('check_labels.check_uid names a check that does not exist');
  await sql`alter table check_labels drop constraint check_labels_check_uid_fkey`.execute(db);
  await sql`create function check_labels_name_checks() returns trigger language plpgsql as $$
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
  await sql`create trigger check_labels_name_checks after insert on check_labels
    referencing new table as inserted for each statement execute function check_labels_name_checks()`.execute(db);
  await sql`create function check_labels_of_deleted_checks() returns trigger language plpgsql as $$
    begin
      delete from check_labels where check_uid in (select uid from deleted);
      return null;
    end $$`.execute(db);
  await sql`create trigger check_labels_of_deleted_checks after delete on checks
    referencing old table as deleted for each statement execute function check_labels_of_deleted_checks()`.execute(db);
}
