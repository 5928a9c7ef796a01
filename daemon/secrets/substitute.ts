import { misplacedSecretReferences, referenceMatcher, referencedSecrets } from '../../checks/index.js';
import type { CheckDefinition } from '../../checks/index.js';
import type { AppDeps } from '../deps.js';
import { secretValues } from './secret-store.js';

/** A check ready to run: references replaced by values, and the values used, for redaction. */
export interface PreparedCheck<C extends CheckDefinition = CheckDefinition> {
  check: C;
  /** Every secret value put into the check: probes/run-probe.ts redacts them from whatever the probe reports. */
  secretValues: string[];
}

/** Why a check cannot run: a secret it refers to is not set. The message names it, never a value. */
export class MissingSecretError extends Error {
  constructor(readonly names: string[]) {
    super(names.length === 1 ? `secret ${names[0]} is not set` : `secrets ${names.join(', ')} are not set`);
    this.name = 'MissingSecretError';
  }
}

/** Why a check cannot run: it refers to a secret outside a credential field (stored before that was refused). */
export class MisplacedReferenceError extends Error {
  constructor(readonly paths: string[]) {
    super(`a secret reference is accepted only in a credential field; remove it from ${paths.join(', ')}`);
    this.name = 'MisplacedReferenceError';
  }
}

/**
 * Replaces every `{{secrets.NAME}}` in the check's config with the value from `secrets`. Pure:
 * the caller reads the values. Throws MissingSecretError naming every secret that is missing, and
 * MisplacedReferenceError when a reference sits outside a credential field.
 */
export function substituteSecrets<C extends CheckDefinition>(check: C, secrets: ReadonlyMap<string, string>): PreparedCheck<C> {
  const names = referencedSecrets(check.config);
  if (names.length > 0) {
    const misplaced = misplacedSecretReferences(check);
    if (misplaced.length > 0) throw new MisplacedReferenceError(misplaced.map((issue) => issue.path));
  }
  const missing = names.filter((name) => !secrets.has(name));
  if (missing.length > 0) throw new MissingSecretError(missing);
  if (names.length === 0) return { check, secretValues: [] };
  const replace = (node: unknown): unknown => {
    if (typeof node === 'string') return node.includes('{{') ? node.replace(referenceMatcher(), (_, name: string) => secrets.get(name)!) : node;
    if (Array.isArray(node)) return node.map(replace);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, replace(value)]));
    return node;
  };
  return {
    check: { ...check, config: replace(check.config) as C['config'] },
    secretValues: names.map((name) => secrets.get(name)!).filter((value) => value !== ''),
  };
}

/**
 * The runner's step before a probe: reads (and decrypts) only the secrets the check refers to
 * and substitutes them. A check without references costs no query.
 */
export async function prepareCheck<C extends CheckDefinition>(deps: Pick<AppDeps, 'db' | 'keyring'>, orgUid: string, check: C): Promise<PreparedCheck<C>> {
  const names = referencedSecrets(check.config);
  if (names.length === 0) return { check, secretValues: [] };
  return substituteSecrets(check, await secretValues(deps, orgUid, names));
}
