import { createHash } from 'node:crypto';
import type { ConversionResult, ImportAction, ImportCheckEntry } from '../../importers/index.js';
import { canonicalJson } from '../checks/canonical-json.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The digest of a conversion: its checks, warnings and skipped items, as `canonicalJson(result)`
 * hashes them. The costly part of the import digest, so it is computed where the conversion ran
 * (the worker thread), off the loop, as each batch of checks is written out (`addChecks`, then
 * `finish`). The checks' canonical texts are hashed as they are, not written out again: the
 * text hashed is the same.
 */
export class ConversionDigest {
  // "checks" sorts before every other key of a result, so its list opens the object; the
  // warnings and skipped items, always there, follow it.
  readonly #hash = createHash('sha256').update('{"checks":[');
  #checks = 0;

  /** The next checks' `canonicalJson`, in order. */
  addChecks(canonicalChecks: readonly string[]): void {
    for (const text of canonicalChecks) this.#hash.update(this.#checks++ === 0 ? text : `,${text}`);
  }

  /** The digest, once every check of `result` has been added. */
  finish(result: ConversionResult): string {
    const rest = canonicalJson({ ...result, checks: undefined });
    return this.#hash.update(`],${rest.slice(1)}`).digest('hex');
  }
}

/** `ConversionDigest` of a whole result at once; `canonicalChecks` is each check's `canonicalJson`, in order. */
export function conversionDigest(result: ConversionResult, canonicalChecks: readonly string[] = result.checks.map((check) => canonicalJson(check))): string {
  const digest = new ConversionDigest();
  digest.addChecks(canonicalChecks);
  return digest.finish(result);
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
