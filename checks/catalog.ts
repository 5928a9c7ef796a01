import type { CheckDefinition } from './check.js';
import { configJsonSchema, type JsonSchema } from './json-schema.js';
import { checkTypes, getCheckType } from './registry.js';
import { targetInfo, type TargetInfo } from './targets.js';
import { validateCheck } from './validate-check.js';

/** A check type as the catalog publishes it (`GET /check-types`, the MCP `list_check_types` tool). */
export interface CheckTypeSummary {
  type: string;
  title: string;
  description: string;
  /** What `target` means for this type. */
  target: TargetInfo;
  /** JSON Schema of `config`. */
  schema: JsonSchema;
}

/** Every check type with its description, target meaning and config JSON Schema. */
export function listCheckTypes(): CheckTypeSummary[] {
  return checkTypes.map(({ type, title, description, target }) => ({
    type,
    title,
    description,
    target: targetInfo(target),
    schema: configJsonSchema(type) as JsonSchema,
  }));
}

/**
 * A complete, valid check definition of `type` (normalised: every default filled in), or
 * undefined when there is no such type.
 */
export function sampleCheck(type: string): CheckDefinition | undefined {
  const checkType = getCheckType(type);
  if (!checkType) return undefined;
  const result = validateCheck({ type, ...checkType.sample });
  // The samples are part of the catalog and tested; an invalid one is a bug in a declaration.
  if (!result.ok) throw new Error(`the sample of check type ${type} is invalid: ${JSON.stringify(result.issues)}`);
  return result.check;
}
