import { sql } from 'kysely';
import type { TestDaemon } from './daemon.js';

/**
 * Makes the database refuse to insert a row into `table` whose `column` holds `value`, so that
 * a write fails partway through. Returns the way back.
 */
export async function failInsertsWhere(daemon: TestDaemon, table: string, column: string, value: string): Promise<() => Promise<void>> {
  const db = daemon.deps.db.kysely;
  const [name, target, field, literal] = [sql.id(`fail_${table}`), sql.table(table), sql.ref(`new.${column}`), sql.lit(value)];
  if (daemon.deps.db.kind === 'sqlite') {
    await sql`create trigger ${name} before insert on ${target} when ${field} = ${literal}
      begin select raise(abort, 'injected failure'); end`.execute(db);
    return async () => void (await sql`drop trigger ${name}`.execute(db));
  }
  await sql`create function ${name}() returns trigger language plpgsql as $$
    begin if ${field} = ${literal} then raise exception 'injected failure'; end if; return new; end $$`.execute(db);
  await sql`create trigger ${name} before insert on ${target} for each row execute function ${name}()`.execute(db);
  return async () => {
    await sql`drop trigger ${name} on ${target}`.execute(db);
    await sql`drop function ${name}()`.execute(db);
  };
}
