import initSqlJs from 'sql.js';

/** The sql.js module: SQLite compiled to WebAssembly, so no native code is needed. */
export type SqlJs = initSqlJs.SqlJsStatic;

let loading: Promise<SqlJs> | undefined;
let loaded: SqlJs | undefined;

/**
 * Loads sql.js once per process (compiling its WebAssembly takes a few tens of milliseconds)
 * and keeps it for every later conversion. Safe to call any number of times; a failed load is
 * retried on the next call.
 */
export function loadSqlJs(): Promise<SqlJs> {
  loading ??= initSqlJs().then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The sql.js module when `loadSqlJs` has finished, else undefined. */
export function loadedSqlJs(): SqlJs | undefined {
  return loaded;
}
