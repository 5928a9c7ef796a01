import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { compileRead, type CompiledRead, type PreparedRead } from './prepared-read.js';
import type { Executor } from './executor.js';

/** Runs a prepared read on committed data, outside any transaction, and returns its first row. */
export type ReadOne = <Args extends unknown[], Row>(read: PreparedRead<Args, Row>, ...args: Args) => Promise<Row | undefined>;

/**
 * Each prepared read compiled once for this database and kept as `prepare` makes it (given the
 * compiled read and its number, unique among them, from 1): the one cache of each reader.
 */
function compiledReads<Entry>(kysely: Executor, prepare: (compiled: CompiledRead, number: number) => Entry): (read: PreparedRead<any, any>) => Entry {
  const entries = new Map<PreparedRead<any, any>, Entry>();
  return (read) => {
    let entry = entries.get(read);
    if (entry === undefined) {
      entry = prepare(compileRead(kysely, read), entries.size + 1);
      entries.set(read, entry);
    }
    return entry;
  };
}

/**
 * SQLite: a second connection to the same file, read-only, its statements kept prepared. In
 * WAL mode it reads the last committed state while the main connection may be inside another
 * request's transaction, and each read is one synchronous call. An in-memory database has no
 * second connection; its reads queue behind transactions like any other query.
 */
export function sqliteReader(path: string, kysely: Executor): { readOne: ReadOne; close(): void } {
  if (path === ':memory:') {
    const compiledFor = compiledReads(kysely, (compiled) => compiled);
    return {
      readOne: async (read, ...args) => {
        const { sql, parameters } = compiledFor(read);
        return (await kysely.executeQuery(CompiledQuery.raw(sql, parameters(args)))).rows[0] as any;
      },
      close: () => {},
    };
  }
  const connection = new SQLite(path, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  const preparedFor = compiledReads(kysely, (compiled) => ({ parameters: compiled.parameters, statement: connection.prepare(compiled.sql) }));
  return {
    readOne: async (read, ...args) => {
      const { statement, parameters } = preparedFor(read);
      return statement.get(...parameters(args)) as any;
    },
    close: () => connection.close(),
  };
}

/**
 * PostgreSQL: with `named`, each read is a named statement, so each pooled connection parses
 * and plans it once (about a third off each read); without, it is parsed anew each time, as a
 * pooler that does not track prepared statements needs.
 */
export function postgresReader(pool: pg.Pool, kysely: Executor, options: { named: boolean }): { readOne: ReadOne } {
  const compiledFor = compiledReads(kysely, (compiled, number) => ({ ...compiled, name: `svc_read_${number}` }));
  return {
    readOne: async (read, ...args) => {
      const { sql, parameters, name } = compiledFor(read);
      return (await pool.query({ ...(options.named ? { name } : {}), text: sql, values: parameters(args) })).rows[0];
    },
  };
}
