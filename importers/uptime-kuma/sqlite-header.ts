// The 100-byte header every SQLite 3 database file starts with (sqlite.org/fileformat.html).

const MAGIC = 'SQLite format 3\0';

/** The first 16 bytes of every SQLite 3 database file. */
export const SQLITE_MAGIC: Uint8Array = Uint8Array.from(MAGIC, (char) => char.charCodeAt(0));

/** Whether `bytes` starts with the SQLite 3 header string. */
export function isSqliteFile(bytes: Uint8Array): boolean {
  if (bytes.length < SQLITE_MAGIC.length) return false;
  return SQLITE_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** Whether `text` starts like a SQLite file that was decoded as text on its way in. */
export function looksLikeSqliteText(text: string): boolean {
  return text.startsWith('SQLite format 3');
}

/** A problem with the header of a file that starts with the SQLite magic, or undefined. */
export function sqliteHeaderProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length < 100) return 'the file is shorter than a SQLite header';
  const rawPageSize = (bytes[16]! << 8) | bytes[17]!;
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return 'the header names an impossible page size';
  if (bytes.length < pageSize) return 'the file is shorter than one database page';
  return undefined;
}

/**
 * The file with its header switched from write-ahead logging to the rollback journal. A
 * database the tool runs in WAL mode says so in bytes 18-19; sql.js keeps files in memory,
 * where WAL cannot be opened, and the file itself is complete once the log was checkpointed
 * (as it is when the tool stops). Returns `bytes` itself when nothing needs changing.
 */
export function withoutWalMode(bytes: Uint8Array): Uint8Array {
  if (bytes[18] !== 2 && bytes[19] !== 2) return bytes;
  const copy = new Uint8Array(bytes);
  copy[18] = 1;
  copy[19] = 1;
  return copy;
}
