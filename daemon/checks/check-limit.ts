import { conflict } from '../errors.js';
import type { Executor } from './check-store.js';
import { onPostgres } from '../db/executor.js';

/**
 * How many checks the organization holds now, inside the transaction that will add some. On
 * PostgreSQL the organization's row is locked first, so two transactions adding checks at once
 * count one after the other and cannot both pass the limit (read committed would let each count
 * without the other's rows); SQLite's transactions are serialized already.
 */
export async function countChecks(trx: Executor, orgUid: string): Promise<number> {
  if (onPostgres(trx)) {
    await trx.selectFrom('organizations').select('uid').where('uid', '=', orgUid).forUpdate().execute();
  }
  const row = await trx
    .selectFrom('checks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_uid', '=', orgUid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * 409 CONFLICT `CHECK_LIMIT_REACHED` when `held` checks plus `adding` new ones would go beyond
 * the organization's limit (SVC_CHECKS_PER_ORG_LIMIT; 0: none). Thrown before anything is
 * written, or inside the transaction that wrote, so nothing partial remains.
 */
export function refuseBeyondCheckLimit(held: number, adding: number, limit: number): void {
  if (limit === 0 || adding <= 0 || held + adding <= limit) return;
  throw conflict(
    'CHECK_LIMIT_REACHED',
    `An organization may hold at most ${limit} checks; it holds ${held} and this would add ${adding}. Nothing was written: delete checks first, or ask the operator to raise SVC_CHECKS_PER_ORG_LIMIT.`,
  );
}
