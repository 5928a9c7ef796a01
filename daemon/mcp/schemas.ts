import { z } from 'zod';
import { commonFieldSchemas } from '../../checks/check-fields.js';
import { checkTypeNames } from '../../checks/index.js';
import type { JsonSchemaObject } from './tool.js';

// Argument and result schemas shared by several tools. Results are loose objects: they promise
// the fields listed, and a later field never breaks a client that validates against them.

/** A check slug argument. */
export const slugArgument = z.string().min(1).max(63).describe('The slug of the check, e.g. "api-health" (list_checks shows every slug).');

/**
 * A candidate check argument. Parsed loosely on purpose: the check catalog then reports every
 * problem with its path, as the REST API does. `tools/list` shows CHECK_INPUT_JSON_SCHEMA.
 */
export const checkArgument = z.record(z.string(), z.unknown());

const CHECK_ARGUMENT_DESCRIPTION =
  'A check definition: name and type are required; slug (derived from the name when absent), enabled, intervalSeconds, ' +
  'target, config, thresholds, labels and description are optional and take their defaults. get_check_type_sample gives a complete one per type.';

/**
 * The JSON Schema of a check definition as published to agents: the common fields in full and
 * `config` as an object, whose schema per type `get_check_type_sample` returns. The whole
 * catalog (every type's config) would make `tools/list` tens of kilobytes long.
 */
export const CHECK_INPUT_JSON_SCHEMA: JsonSchemaObject = (() => {
  const schema = z
    .strictObject({
      ...commonFieldSchemas,
      type: z.enum(checkTypeNames as unknown as [string, ...string[]]).describe('The check type; list_check_types describes each.'),
      config: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("Type-specific settings; get_check_type_sample {type} returns an example and their JSON Schema. Left out: the type's defaults."),
    })
    .describe(CHECK_ARGUMENT_DESCRIPTION);
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as JsonSchemaObject;
  return json;
})();

/** One validation problem: the field path (`config.method`, `thresholds.timeoutMs`) and what is wrong. */
export const issueResult = z.object({ path: z.string(), message: z.string() });

/** A stored check, as the REST API shows it. */
export const checkResult = z.looseObject({
  slug: z.string(),
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  intervalSeconds: z.number(),
  target: z.string(),
  config: z.record(z.string(), z.unknown()),
  thresholds: z.record(z.string(), z.unknown()),
  labels: z.record(z.string(), z.string()),
  description: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A page cursor argument: the `nextCursor` of the previous answer. */
export const cursorArgument = z.string().min(1).describe('The nextCursor of the previous answer, to fetch the next page.');
