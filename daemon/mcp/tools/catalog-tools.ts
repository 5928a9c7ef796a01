import { z } from 'zod';
import { checkTypeNames } from '../../../checks/index.js';
import { checkTypeCatalog, requireSample } from '../../checks/check-types.js';
import { defineTool } from '../tool.js';

// The check-type catalog: the same one the REST API and the importers use. It belongs to no
// organization, so these tools take no `org` argument.

const targetResult = z.looseObject({ kind: z.string(), description: z.string(), example: z.string().optional() });

/** `list_check_types`: every check type, optionally with the JSON Schema of its config. */
export const listCheckTypesTool = defineTool({
  name: 'list_check_types',
  title: 'List check types',
  description:
    'Lists every check type the service can run (http, tcp, dns, ...), with a description and what its "target" means. ' +
    'Use it first, to pick the type of a check you are about to write; then call get_check_type_sample for that type. ' +
    'Set includeSchemas to true to also get the JSON Schema of each type\'s "config" (long). ' +
    'Example: {} or {"includeSchemas": true}.',
  access: 'read',
  input: z.strictObject({
    includeSchemas: z.boolean().default(false).describe("Also return the JSON Schema of each type's config (about 35 KB in all)."),
  }),
  output: z.object({
    types: z.array(
      z.looseObject({
        type: z.string(),
        title: z.string(),
        description: z.string(),
        target: targetResult,
        schema: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ deps, args }) {
    const types = checkTypeCatalog(deps.caches).map(({ schema, ...type }) => (args.includeSchemas ? { ...type, schema } : type));
    return { structured: { types }, summary: `${types.length} check types: ${types.map((t) => t.type).join(', ')}.` };
  },
});

/** `get_check_type_sample`: a complete, valid check of one type, and its config schema. */
export const getCheckTypeSampleTool = defineTool({
  name: 'get_check_type_sample',
  title: 'Get a sample check of a type',
  description:
    'Returns a complete, valid check definition of one type (every field filled in), what its target means, and the JSON Schema ' +
    'of its "config". Use it as the starting point of a new check: change name, target, config and labels, then call ' +
    'validate_check and create_check. Example: {"type": "http"}.',
  access: 'read',
  input: z.strictObject({
    type: z
      .string()
      .min(1)
      .describe(`The check type, one of: ${checkTypeNames.join(', ')}.`),
  }),
  output: z.object({
    type: z.string(),
    target: targetResult,
    configSchema: z.record(z.string(), z.unknown()),
    check: z.record(z.string(), z.unknown()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run({ deps, args }) {
    const check = requireSample(args.type);
    const type = checkTypeCatalog(deps.caches).find((t) => t.type === args.type)!;
    return {
      structured: { type: type.type, target: type.target, configSchema: type.schema, check },
      summary: `A complete ${type.title} check (type "${type.type}"). Target: ${type.target.description}`,
    };
  },
});
