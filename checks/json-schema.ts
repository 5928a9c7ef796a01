import { z } from 'zod';
import { commonFieldSchemas } from './check-fields.js';
import { checkTypes, getCheckType, type AnyCheckType } from './registry.js';

/** A JSON Schema document (draft 2020-12), as plain JSON. */
export type JsonSchema = Record<string, unknown>;

// Schemas describe what a client may send, so defaults are optional ("input" side).
function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
}

// The schemas never change at run time; building them once keeps /check-types cheap.
// Callers get copies, so nothing they do to a result leaks into the next one.
const configSchemas = new Map<string, JsonSchema>();
let checkSchema: JsonSchema | undefined;

/** The JSON Schema of the `config` of `type`, or undefined when there is no such type. */
export function configJsonSchema(type: string): JsonSchema | undefined {
  const checkType = getCheckType(type);
  if (!checkType) return undefined;
  let schema = configSchemas.get(type);
  if (!schema) {
    schema = toJsonSchema(checkType.config);
    configSchemas.set(type, schema);
  }
  return structuredClone(schema);
}

function variantOf(checkType: AnyCheckType) {
  const { target } = checkType;
  return z
    .strictObject({
      ...commonFieldSchemas,
      type: z.literal(checkType.type),
      target:
        target.kind === 'none'
          ? z.literal('').optional().describe(target.description)
          : z.string().min(1).max(2048).describe(`${target.description} Example: ${target.example}`),
      config: checkType.config.optional(),
    })
    .describe(`${checkType.title}: ${checkType.description}`);
}

/**
 * The JSON Schema of a whole check definition: one alternative per type, told apart by
 * `type`, each with that type's config schema. Rules that span fields (timeout within the
 * interval) and the finer target checks are enforced by `validateCheck` only.
 */
export function checkDefinitionJsonSchema(): JsonSchema {
  if (!checkSchema) {
    const variants = checkTypes.map(variantOf) as unknown as [z.ZodObject, ...z.ZodObject[]];
    checkSchema = {
      ...toJsonSchema(z.discriminatedUnion('type', variants)),
      title: 'Check definition',
    };
  }
  return structuredClone(checkSchema);
}
