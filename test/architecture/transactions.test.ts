import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every transaction of the daemon begins with `inTransaction` (daemon/db/in-transaction.ts), so
// that what is registered with `afterCommit` runs once it commits: the outboxes' bells
// (daemon/notify/outbox-bell.ts) deliver what a transaction queued at once. This finds the ways
// to begin one directly: Kysely's `transaction()` and a `BEGIN` written out.

const ROOT = resolve(import.meta.dirname, '../..');

/** Where a transaction begins, and why. */
const BEGINS_TRANSACTIONS: Record<string, string> = {
  'daemon/db/in-transaction.ts': 'inTransaction itself',
  'daemon/db/connect.ts': "the SQLite driver's BEGIN IMMEDIATE, which Kysely runs for inTransaction",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The lines of `text` that begin a transaction directly. */
export function directTransactions(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return code
    .split('\n')
    .filter((line) => /\.transaction\s*\(\s*\)/.test(line) || /[`'"]\s*begin\b/i.test(line))
    .map((line) => line.trim());
}

describe('transactions', () => {
  it('begin with inTransaction everywhere in the daemon', () => {
    const found = sources(join(ROOT, 'daemon'))
      .map((path) => relative(ROOT, path))
      .filter((file) => !(file in BEGINS_TRANSACTIONS))
      .flatMap((file) => directTransactions(readFileSync(join(ROOT, file), 'utf8')).map((line) => `${file}: ${line}`));
    expect(found).toEqual([]);
  });

  it('are found begun directly in each shape', () => {
    const text = [
      'await db.kysely.transaction().execute(async (trx) => {',
      '  const rows = await deps.db.kysely',
      '    .transaction()',
      'await sql`BEGIN IMMEDIATE`.execute(db);',
      "connection.exec('begin');",
      '// db.transaction() in a comment',
      'await inTransaction(db.kysely, async (trx) => {',
    ].join('\n');
    expect(directTransactions(text)).toEqual([
      'await db.kysely.transaction().execute(async (trx) => {',
      '.transaction()',
      'await sql`BEGIN IMMEDIATE`.execute(db);',
      "connection.exec('begin');",
    ]);
  });
});
