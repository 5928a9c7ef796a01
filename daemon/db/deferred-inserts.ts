import type { Insertable } from 'kysely';
import type { Executor } from './executor.js';
import type { Database } from './schema.js';

/** The tables whose rows a transaction may collect and insert together, in the order they are inserted (a row may refer to a row of a table before it). */
const ORDER = ['incidents', 'notification_outbox', 'check_state_changes'] as const;

type DeferredTable = (typeof ORDER)[number];

/** Rows per statement: under 20 columns each, well under both engines' parameter limits. */
const ROWS_PER_STATEMENT = 500;

/**
 * Rows a transaction writes later, all at once: a few multi-row statements instead of one
 * statement per row (the engine's incidents of a batch of results in which many checks go down,
 * daemon/runner/check-incidents.ts). Nothing may read the rows before `insert` has run.
 */
export class DeferredInserts {
  readonly #rows: { [T in DeferredTable]: Insertable<Database[T]>[] } = { incidents: [], notification_outbox: [], check_state_changes: [] };

  add<T extends DeferredTable>(table: T, rows: readonly Insertable<Database[T]>[]): void {
    (this.#rows[table] as Insertable<Database[T]>[]).push(...rows);
  }

  /** Inserts the rows collected, table by table in ORDER, and forgets them. */
  async insert(db: Executor): Promise<void> {
    for (const table of ORDER) {
      const rows = this.#rows[table];
      this.#rows[table] = [];
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        await db
          .insertInto(table)
          .values(rows.slice(i, i + ROWS_PER_STATEMENT) as never)
          .execute();
      }
    }
  }
}
