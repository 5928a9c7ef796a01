import { createHash } from 'node:crypto';
import type { ConversionResult, ImportAction, ImportCheckEntry } from '../../importers/index.js';
import { canonicalJson } from '../checks/check-rows.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The digest of a conversion: its checks, warnings and skipped items. The costly part of the
 * import digest, so it is computed where the conversion ran (the worker thread), off the loop.
 */
export function conversionDigest(result: ConversionResult): string {
  return sha256(canonicalJson(result));
}

/**
 * One value for what an import does: the conversion (by its digest), each check's action, the
 * owner of each check in conflict, and each existing check's field changes and conflicts. A
 * preview and the apply that follows it have the same digest exactly when the apply would do
 * what the preview showed.
 */
export function importDigest(
  conversion: string,
  actions: readonly Exclude<ImportAction, 'skip'>[],
  owners: readonly (string | null)[],
  fields: readonly Pick<ImportCheckEntry, 'changes' | 'conflicts'>[],
): string {
  return sha256(JSON.stringify({ conversion, actions, owners, fields: canonicalJson(fields) }));
}
