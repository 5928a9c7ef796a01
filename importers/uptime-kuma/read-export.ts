import { ImportInputError, inputText, parseJsonText } from '../converter.js';
import { INPUT_HINT } from './input-hint.js';
import type { MonitorExport } from './monitor-record.js';
import { readBackup } from './read-backup.js';
import { readDatabase } from './read-database.js';
import type { SqlJs } from './sql-js.js';
import { isSqliteFile, looksLikeSqliteText } from './sqlite-header.js';

const EXPECTED = 'a database file or backup JSON of the self-hosted monitor';

/**
 * Recognises the input (the SQLite header, else JSON) and reads its monitors. `sqlJs` is
 * needed only for database files; it is asked for lazily so that a backup converts without it.
 */
export function readExport(input: Uint8Array | string, sqlJs: () => SqlJs): MonitorExport {
  if (typeof input !== 'string' && isSqliteFile(input)) return readDatabase(sqlJs(), input);
  let text: string;
  try {
    text = inputText(input, EXPECTED);
  } catch (error) {
    throw new ImportInputError(`${(error as Error).message}. ${INPUT_HINT}`, { cause: error });
  }
  if (looksLikeSqliteText(text)) {
    throw new ImportInputError(`the database file arrived as text and was damaged on the way: send its raw bytes. ${INPUT_HINT}`);
  }
  if (/^\s*(?:--|\/\*|CREATE\s|INSERT\s)/i.test(text)) {
    throw new ImportInputError(`the input looks like an SQL dump, which cannot be read. ${INPUT_HINT}`);
  }
  let value: unknown;
  try {
    value = parseJsonText(text, EXPECTED);
  } catch (error) {
    throw new ImportInputError(`${(error as Error).message}. ${INPUT_HINT}`, { cause: error });
  }
  return readBackup(value);
}
