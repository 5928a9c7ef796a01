import type { CheckDefinition } from './check.js';
import { misplacedReferences, MISPLACED_REFERENCE } from './credential-fields.js';
import type { ValidationIssue } from './issues.js';
import { getCheckType } from './registry.js';
import { containsReference } from './secret-references.js';

/**
 * Where a stored check holds a secret reference outside a credential field. Validation refuses
 * such checks; this finds them among checks stored before it did, so the runner never puts a
 * secret's value where a result could show it.
 */
export function misplacedSecretReferences(check: Pick<CheckDefinition, 'type' | 'target' | 'config'>): ValidationIssue[] {
  const checkType = getCheckType(check.type);
  const issues = checkType ? misplacedReferences(checkType.config, check.config, ['config']) : [];
  if (typeof check.target === 'string' && containsReference(check.target)) issues.push({ path: 'target', message: MISPLACED_REFERENCE });
  return issues;
}
