import type { AppDeps } from './deps.js';
import { newId } from './db/ids.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Parameters: system-wide (organization null) or per organization, each a JSON document of the
 * form {"value": ...}. Returns the inner value; undefined when unset; `{malformed}` when the
 * stored text is not such a document (callers decide how to treat it).
 */
export async function readParameter(
  deps: Pick<AppDeps, 'db'>,
  organizationUid: string | null,
  key: string,
): Promise<{ value?: unknown; malformed?: string; set: boolean }> {
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

/**
 * Stores a parameter as {"value": value}, replacing any earlier one, in one upsert: concurrent
 * first writes of one key both succeed (the last one wins) on both engines.
 */
export async function writeParameter(deps: Deps, organizationUid: string | null, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify({ value });
  const now = deps.clock.now().toISOString();
  await deps.db.kysely
    .insertInto('parameters')
    .values({ uid: newId(), organization_uid: organizationUid, key, value: text, updated_at: now })
    .onConflict((oc) => {
      // Each scope has its own unique index: (organization, key), and key alone where there is no organization.
      const target = organizationUid === null ? oc.column('key').where('organization_uid', 'is', null) : oc.columns(['organization_uid', 'key']);
      return target.doUpdateSet({ value: text, updated_at: now });
    })
    .execute();
}

/** Removes a parameter. */
export async function deleteParameter(deps: Pick<AppDeps, 'db'>, organizationUid: string | null, key: string): Promise<void> {
  let query = deps.db.kysely.deleteFrom('parameters').where('key', '=', key);
  query = organizationUid === null ? query.where('organization_uid', 'is', null) : query.where('organization_uid', '=', organizationUid);
  await query.execute();
}
