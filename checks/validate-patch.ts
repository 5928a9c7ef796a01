import { nestsDeeperThan, tooDeepMessage } from './json-depth.js';
import type { CheckDefinition } from './check.js';
import { isPlainObject, validateCheck, type CheckValidation } from './validate-check.js';

/**
 * Applies a JSON Merge Patch (RFC 7396): objects merge key by key, `null` removes a key, and
 * anything else (lists included) replaces the old value.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
      continue;
    }
    // Defined rather than assigned, so that a "__proto__" key from parsed JSON stays a plain
    // field (and is then reported) instead of replacing the object's prototype.
    const previous = Object.hasOwn(result, key) ? result[key] : undefined;
    Object.defineProperty(result, key, {
      value: mergePatch(previous, value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

/**
 * Validates a PATCH of an existing check: `changes` is merged into `existing` as a JSON Merge
 * Patch, then the result is validated like a new check. The slug is kept unless the patch
 * sets it (or removes it, which derives it from the name again). When the type changes, the
 * old config is dropped rather than merged, because its fields mean nothing to the new type.
 */
export function validateCheckPatch(existing: CheckDefinition, changes: unknown): CheckValidation {
  if (!isPlainObject(changes)) return { ok: false, issues: [{ path: '', message: 'expected an object of changes' }] };
  // mergePatch recurses: measure the changes first, without recursion.
  if (nestsDeeperThan(changes)) return { ok: false, issues: [{ path: '', message: tooDeepMessage() }] };
  const base: Record<string, unknown> = { ...existing };
  if (changes.type !== undefined && changes.type !== existing.type) delete base.config;
  return validateCheck(mergePatch(base, changes));
}
