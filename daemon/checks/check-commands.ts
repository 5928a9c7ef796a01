import { validateCheck, validateCheckPatch, type CheckDefinition } from '../../checks/index.js';
import type { Db } from '../db/connect.js';
import { inTransaction } from '../db/in-transaction.js';
import { checkDeleted, checkSwitched } from '../runner/check-switches.js';
import { notFound, validationFailed, type AppError } from '../errors.js';
import type { StoredCheck } from './check-rows.js';
import { createCheck, deleteCheck, getCheck, readCheck, updateCheck, type Executor } from './check-store.js';

// What a caller does with one check, validated, shared by the REST routes and the MCP tools so
// that both answer the same problems with the same words. Failures are AppErrors: the REST
// mount renders them as HTTP errors, the MCP server as tool errors.

/** 404 NOT_FOUND for a slug that names no check of the organization. */
export const checkNotFound = (slug: string): AppError => notFound(`No check with slug "${slug}" in this organization.`);

/** Validates a candidate check, or throws 400 VALIDATION_FAILED listing every problem. */
export function validCheck(input: unknown): CheckDefinition {
  const result = validateCheck(input);
  if (!result.ok) throw validationFailed(result.issues, 'The check is not valid.');
  return result.check;
}

/** The stored check's definition, as a change starts from. */
function definitionOf(check: StoredCheck): CheckDefinition {
  const { uid: _uid, createdAt: _created, updatedAt: _updated, ...definition } = check;
  return definition as CheckDefinition;
}

/** The check with `slug`, or 404. */
async function requireCheck(db: Executor, orgUid: string, slug: string): Promise<StoredCheck> {
  const check = await getCheck(db, orgUid, slug);
  if (!check) throw checkNotFound(slug);
  return check;
}

/** The check with `slug` as last committed (a read outside any transaction), or 404. */
export async function requireCommittedCheck(db: Db, orgUid: string, slug: string): Promise<StoredCheck> {
  const check = await readCheck(db, orgUid, slug);
  if (!check) throw checkNotFound(slug);
  return check;
}

/** Validates and stores a new check: 400 listing every problem, 409 `SLUG_TAKEN` or `CHECK_LIMIT_REACHED` (beyond `checkLimit`). */
export async function createValidCheck(db: Executor, orgUid: string, input: unknown, now: Date, checkLimit: number): Promise<StoredCheck> {
  return createCheck(db, orgUid, validCheck(input), now, checkLimit);
}

/**
 * Applies `changes` to the check `slug` as a JSON Merge Patch (null removes a field) and stores
 * the result once it validates as a whole: 404, 400 listing every problem, 409 `SLUG_TAKEN`.
 */
export async function changeCheck(db: Executor, orgUid: string, slug: string, changes: unknown, now: Date): Promise<StoredCheck> {
  const existing = await requireCheck(db, orgUid, slug);
  const result = validateCheckPatch(definitionOf(existing), changes);
  if (!result.ok) throw validationFailed(result.issues, 'The changed check is not valid.');
  const updated = await inTransaction(db, async (trx) => {
    const stored = await updateCheck(trx, orgUid, existing.uid, result.check, now);
    if (stored) await checkSwitched(trx, changedCheck(orgUid, stored), existing.enabled, stored.enabled, now);
    return stored;
  });
  // Deleted by someone else between the read and the write.
  if (!updated) throw checkNotFound(slug);
  return updated;
}

/**
 * Deletes the check `slug`, or 404. Its unresolved incidents are resolved first, saying that
 * the check was deleted, and notified.
 */
export async function removeCheck(db: Executor, orgUid: string, slug: string, now: Date): Promise<void> {
  await inTransaction(db, async (trx) => {
    const check = await getCheck(trx, orgUid, slug);
    if (!check) throw checkNotFound(slug);
    await checkDeleted(trx, changedCheck(orgUid, check), now);
    if (!(await deleteCheck(trx, orgUid, slug))) throw checkNotFound(slug);
  });
}

/** The check as the engine's state changes name it. */
const changedCheck = (orgUid: string, check: StoredCheck) => ({ uid: check.uid, organizationUid: orgUid, slug: check.slug, name: check.name });
