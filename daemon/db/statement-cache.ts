import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely prepares every SQLite statement anew, which is most of the cost of a small query. The
 * daemon runs the same few hundred statements over and over, so they are kept prepared (least
 * recently used beyond `max`). Reuse is safe: each one runs to completion synchronously.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
}
