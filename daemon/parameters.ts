import type { AppDeps } from './deps.js';
import { newId } from './db/ids.js';
import { inTransaction } from './db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Parameters: system-wide (organization null) or per organization, each a JSON document of the
 * form {"value": ...}. Returns the inner value; undefined when unset; `{malformed}` when the
 * stored text is not such a document (callers decide how to treat it).
 */
export async function readParameter(deps: Pick<AppDeps, 'db'>, organizationUid: string | null, key: string): Promise<{ value?: unknown; malformed?: string; set: boolean }> {
  let query = deps.db.kysely.selectFrom('parameters').select('value').where('key', '=', key);
  query = organizationUid === null ? query.where('organization_uid', 'is', null) : query.where('organization_uid', '=', organizationUid);
  const row = await query.executeTakeFirst();
  if (!row) return { set: false };
  try {
    const document = JSON.parse(row.value) as unknown;
    if (document === null || typeof document !== 'object' || !('value' in document)) return { set: true, malformed: row.value };
    return { set: true, value: (document as { value: unknown }).value };
  } catch {
    return { set: true, malformed: row.value };
  }
}

/** Stores a parameter as {"value": value}, replacing any earlier one; joins a transaction `deps.db.kysely` is in. */
export async function writeParameter(deps: Deps, organizationUid: string | null, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify({ value });
  const now = deps.clock.now().toISOString();
  await inTransaction(deps.db.kysely, async (trx) => {
    let update = trx.updateTable('parameters').set({ value: text, updated_at: now }).where('key', '=', key);
    update = organizationUid === null ? update.where('organization_uid', 'is', null) : update.where('organization_uid', '=', organizationUid);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      await trx.insertInto('parameters').values({ uid: newId(), organization_uid: organizationUid, key, value: text, updated_at: now }).execute();
    }
  });
}

/** Removes a parameter. */
export async function deleteParameter(deps: Pick<AppDeps, 'db'>, organizationUid: string | null, key: string): Promise<void> {
  let query = deps.db.kysely.deleteFrom('parameters').where('key', '=', key);
  query = organizationUid === null ? query.where('organization_uid', 'is', null) : query.where('organization_uid', '=', organizationUid);
  await query.execute();
}
