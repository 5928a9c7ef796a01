import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.js';
import { CIPHERTEXT_PREFIX, isEncrypted, keyIdOf, type Keyring } from './keyring.js';
import { inTransaction } from '../db/in-transaction.js';

/** A column that holds a secret which must be read back, and so is stored encrypted. */
interface SealedColumn {
  table: string;
  keys: string[];
  column: string;
}

/** Every column the keyring encrypts: TOTP secrets (pending and active), channel settings, organization secrets. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'users', keys: ['uid'], column: 'totp_secret' },
  { table: 'users', keys: ['uid'], column: 'totp_pending_secret' },
  { table: 'notification_channels', keys: ['uid'], column: 'config' },
  { table: 'org_secrets', keys: ['organization_uid', 'name'], column: 'value' },
];

const BATCH = 200;

/**
 * Encrypts what is stored in clear (`plaintext`: at every start-up, so values written before
 * encryption existed are sealed once) or, for a rotation (`rotate`), also re-encrypts every
 * value another key wrote with the current key. Each row is updated only if it still holds what
 * was read, so a concurrent change is never overwritten. Returns how many values were written.
 */
export async function sealAtRest(db: Db, keyring: Keyring, mode: 'plaintext' | 'rotate'): Promise<number> {
  const kysely = db.kysely as unknown as Kysely<any>;
  const stale = (value: string) => (mode === 'plaintext' ? !isEncrypted(value) : keyIdOf(value) !== keyring.currentId);
  let written = 0;
  for (const { table, keys, column } of SEALED_COLUMNS) {
    let query = kysely
      .selectFrom(table)
      .select([...keys, column])
      .where(column, 'is not', null);
    // At start-up only values in clear are wanted, so the scan skips ciphertexts; a rotation
    // (rare) reads them all and `stale` picks by key id (which may hold "_", a LIKE wildcard).
    if (mode === 'plaintext') query = query.where(column, 'not like', `${CIPHERTEXT_PREFIX}%`);
    const rows = (await query.execute()) as Record<string, string>[];
    const due = rows.filter((row) => stale(row[column]));
    for (let start = 0; start < due.length; start += BATCH) {
      await inTransaction(kysely, async (trx) => {
        for (const row of due.slice(start, start + BATCH)) {
          const plain = isEncrypted(row[column]) ? keyring.decrypt(row[column]) : row[column];
          let update = trx
            .updateTable(table)
            .set({ [column]: keyring.encrypt(plain) })
            .where(column, '=', row[column]);
          for (const key of keys) update = update.where(key, '=', row[key]);
          const result = await update.executeTakeFirst();
          written += Number(result.numUpdatedRows);
        }
      });
    }
  }
  return written;
}
