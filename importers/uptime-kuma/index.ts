// The self-hosted monitor (source `selfhosted-monitor-db`): its 2.x SQLite database file or
// its 1.x backup JSON. Database files are read with sql.js, whose WebAssembly must be loaded
// once per process before the first conversion: `await prepareSelfhostedMonitorDb()`, or use
// `convertSelfhostedMonitorDbAsync`, which does it. The conversion itself stays synchronous
// and pure, so `convertSelfhostedMonitorDb` is an ordinary `Converter`.
import type { ConversionResult, ConvertOptions, Converter } from '../converter.js';
import { convertExport } from './convert-export.js';
import { readExport } from './read-export.js';
import { loadSqlJs, loadedSqlJs, type SqlJs } from './sql-js.js';

export { isSqliteFile } from './sqlite-header.js';

function preparedSqlJs(): SqlJs {
  const sqlJs = loadedSqlJs();
  if (sqlJs === undefined) {
    throw new Error('sql.js is not loaded: await prepareSelfhostedMonitorDb() once before converting a database file');
  }
  return sqlJs;
}

/**
 * Loads sql.js (its WebAssembly) once per process; later calls return at once. Await it
 * before `convertSelfhostedMonitorDb` is given a database file.
 */
export async function prepareSelfhostedMonitorDb(): Promise<void> {
  await loadSqlJs();
}

/**
 * Converts a 2.x database file (raw bytes, recognised by the SQLite header) or a 1.x backup
 * JSON (text or bytes). Throws ImportInputError when the input is neither, is damaged, or is
 * some other program's SQLite database; throws a plain Error when given a database file
 * before `prepareSelfhostedMonitorDb()` has finished (a programming error).
 */
export const convertSelfhostedMonitorDb: Converter = (input, options) => convertExport(readExport(input, preparedSqlJs), options);

/** What a readable export holds, as `inspectSelfhostedMonitorDb` reports it. */
export interface SelfhostedExportSummary {
  readonly kind: '2.x database' | '1.x backup';
  /** Rows of the monitor table (or entries of the backup's monitorList), groups included. */
  readonly monitors: number;
}

/**
 * Reads the input as the converter would, without converting it: a quick check that a file
 * is readable before it is sent anywhere. Throws ImportInputError exactly when the converter
 * would; needs `prepareSelfhostedMonitorDb()` for database files, like the converter.
 */
export function inspectSelfhostedMonitorDb(input: Uint8Array | string): SelfhostedExportSummary {
  const data = readExport(input, preparedSqlJs);
  return { kind: data.kind, monitors: data.monitors.length };
}

/** `prepareSelfhostedMonitorDb()` then `convertSelfhostedMonitorDb(input, options)`. */
export async function convertSelfhostedMonitorDbAsync(input: Uint8Array | string, options?: ConvertOptions): Promise<ConversionResult> {
  await prepareSelfhostedMonitorDb();
  return convertSelfhostedMonitorDb(input, options);
}
