import { CompiledQuery } from 'kysely';
import type { Db } from '../db/connect.js';

/** At most this many rows per PostgreSQL statement (its limit is 65,535 values). */
const CHUNK_ROWS = 200;

/**
 * A statement that writes many rows: `head`, a row of values (`row`, a `?` for each value), and
 * `tail`, as each database takes it best. PostgreSQL gets a VALUES list of up to 200 rows per
 * statement, since each statement is a round trip. SQLite gets one statement per row: a call
 * into the library rather than a round trip, and the same text every time, so it stays prepared
 * (the statement cache), where a VALUES list is a new text for every batch size, parsed and
 * planned anew. The text is plain SQL, so no query is built per batch.
 */
export class RowWrite {
  private readonly oneRow: string;

  constructor(
    private readonly head: string,
    private readonly row: string,
    private readonly tail: string,
  ) {
    this.oneRow = `${head} ${row} ${tail}`;
  }

  /** Writes `rows`, each holding one value for every `?` of the row. */
  async run(db: Db['kysely'], kind: Db['kind'], rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
    if (kind === 'sqlite') {
      for (const values of rows) await db.executeQuery(CompiledQuery.raw(this.oneRow, [...values]));
      return;
    }
    for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
      const chunk = rows.slice(i, i + CHUNK_ROWS);
      let parameter = 0;
      const list = chunk.map(() => this.row.replace(/\?/g, () => `$${++parameter}`)).join(', ');
      await db.executeQuery(CompiledQuery.raw(`${this.head} ${list} ${this.tail}`, chunk.flat()));
    }
  }
}
