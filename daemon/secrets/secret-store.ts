import { referencedSecrets } from '../../checks/index.js';
import { recordAudit } from '../audit/audit-log.js';
import { inTransaction } from '../db/in-transaction.js';
import type { AppDeps } from '../deps.js';

type Deps = Pick<AppDeps, 'db' | 'keyring' | 'clock'>;

/** A secret as the API lists it: its name, dates and the checks that refer to it; never its value. */
export interface SecretSummary {
  name: string;
  createdAt: string;
  updatedAt: string;
  usedBy: string[];
}

/**
 * The slugs of the checks referring to each secret name. Only checks whose config holds a
 * reference at all are read (the LIKE), so an organization without secrets costs one index scan.
 */
export async function secretUse(deps: Pick<AppDeps, 'db'>, orgUid: string): Promise<Map<string, string[]>> {
  const rows = await deps.db.kysely
    .selectFrom('checks')
    .select(['slug', 'config'])
    .where('organization_uid', '=', orgUid)
    .where('config', 'like', '%{{%secrets.%')
    .orderBy('slug')
    .execute();
  const use = new Map<string, string[]>();
  for (const row of rows) {
    for (const name of referencedSecrets(JSON.parse(row.config))) use.set(name, [...(use.get(name) ?? []), row.slug]);
  }
  return use;
}

/** The organization's secrets by name, with their use; reads no value. */
export async function listSecrets(deps: Pick<AppDeps, 'db'>, orgUid: string): Promise<SecretSummary[]> {
  const [rows, use] = await Promise.all([
    deps.db.kysely.selectFrom('org_secrets').select(['name', 'created_at', 'updated_at']).where('organization_uid', '=', orgUid).orderBy('name').execute(),
    secretUse(deps, orgUid),
  ]);
  return rows.map((row) => ({ name: row.name, createdAt: row.created_at, updatedAt: row.updated_at, usedBy: use.get(row.name) ?? [] }));
}

/** Of `names`, those the organization has no secret for (sorted). */
export async function missingSecrets(deps: Pick<AppDeps, 'db'>, orgUid: string, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await deps.db.kysely.selectFrom('org_secrets').select('name').where('organization_uid', '=', orgUid).where('name', 'in', names).execute();
  const present = new Set(rows.map((row) => row.name));
  return names.filter((name) => !present.has(name)).sort();
}

/** The secrets a check's config refers to that the organization does not have: validation reports them. */
export async function missingReferences(deps: Pick<AppDeps, 'db'>, orgUid: string, check: { config: unknown }): Promise<string[]> {
  return missingSecrets(deps, orgUid, referencedSecrets(check.config));
}

/** Sets (creates or replaces) a secret, encrypted, with an audit entry that names it and never holds the value. */
export async function setSecret(
  deps: Deps,
  orgUid: string,
  name: string,
  value: string,
  actorUid: string | null,
): Promise<{ name: string; created: boolean; createdAt: string; updatedAt: string }> {
  const now = deps.clock.now().toISOString();
  const sealed = deps.keyring.encrypt(value);
  return inTransaction(deps.db.kysely, async (trx) => {
    const existing = await trx
      .selectFrom('org_secrets')
      .select('created_at')
      .where('organization_uid', '=', orgUid)
      .where('name', '=', name)
      .executeTakeFirst();
    await trx
      .insertInto('org_secrets')
      .values({ organization_uid: orgUid, name, value: sealed, updated_by: actorUid, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['organization_uid', 'name']).doUpdateSet({ value: sealed, updated_by: actorUid, updated_at: now }))
      .execute();
    await recordAudit(trx, deps.clock, { organizationUid: orgUid, kind: 'secret.set', actorUid, data: { name, created: !existing } });
    return { name, created: !existing, createdAt: existing?.created_at ?? now, updatedAt: now };
  });
}

/** Deletes a secret (checks that refer to it then fail with "secret NAME is not set"); false when there is none. */
export async function deleteSecret(deps: Pick<AppDeps, 'db' | 'clock'>, orgUid: string, name: string, actorUid: string | null): Promise<boolean> {
  return inTransaction(deps.db.kysely, async (trx) => {
    const result = await trx.deleteFrom('org_secrets').where('organization_uid', '=', orgUid).where('name', '=', name).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await recordAudit(trx, deps.clock, { organizationUid: orgUid, kind: 'secret.deleted', actorUid, data: { name } });
    return true;
  });
}

/**
 * The values of the named secrets that exist, decrypted: for the runner, right before a probe,
 * and never for an answer. Only the names asked for are read and decrypted.
 */
export async function secretValues(deps: Pick<AppDeps, 'db' | 'keyring'>, orgUid: string, names: readonly string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = await deps.db.kysely
    .selectFrom('org_secrets')
    .select(['name', 'value'])
    .where('organization_uid', '=', orgUid)
    .where('name', 'in', names)
    .execute();
  return new Map(rows.map((row) => [row.name, deps.keyring.reveal(row.value)]));
}
