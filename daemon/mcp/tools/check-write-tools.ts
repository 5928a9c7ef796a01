import { z } from 'zod';
import { changeCheck, createValidCheck, removeCheck } from '../../checks/check-commands.js';
import { checkViewsWithRuntime } from '../../runner/check-runtime.js';
import { CHECK_INPUT_JSON_SCHEMA, checkArgument, checkResult, slugArgument } from '../schemas.js';
import { defineTool, orgUidOf } from '../tool.js';

// The tools that change checks: `mcp` scope and a role granting checks:write (user and up).
// Each goes through the same check commands as the REST routes.

/** `create_check`: validate and store a new check. */
export const createCheckTool = defineTool({
  name: 'create_check',
  title: 'Create a check',
  description:
    'Creates a check in the organization. The definition is validated first exactly as validate_check does; when anything is ' +
    'wrong nothing is stored and the error lists every problem with its path. A slug already in use is refused (SLUG_TAKEN): ' +
    'pick another slug, or change the existing check with update_check. Call validate_check first when unsure. ' +
    'Example: {"check": {"name": "API health", "type": "http", "target": "https://api.example.com/health", "labels": {"team": "platform"}}}.',
  access: 'write',
  permission: 'checks:write',
  input: z.strictObject({ check: checkArgument }),
  listedProperties: { check: CHECK_INPUT_JSON_SCHEMA },
  output: z.object({ check: checkResult }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(call) {
    const stored = await createValidCheck(
      call.deps.db.kysely,
      orgUidOf(call),
      call.args.check,
      call.deps.clock.now(),
      call.deps.config.organizations.checksLimit,
    );
    return { structured: { check: (await checkViewsWithRuntime(call.deps, [stored]))[0] }, summary: `Created check "${stored.slug}".` };
  },
});

/** `update_check`: change a check with a JSON Merge Patch. */
export const updateCheckTool = defineTool({
  name: 'update_check',
  title: 'Change a check',
  description:
    'Changes an existing check. "changes" is a JSON Merge Patch: the fields given replace the current ones, objects (config, ' +
    'thresholds, labels) merge key by key, and null removes a field or a label. The result is validated as a whole; when ' +
    'anything is wrong nothing is stored and the error lists every problem. Changing "type" drops the old config. Setting ' +
    '"slug" renames the check. Example: {"slug": "api-health", "changes": {"intervalSeconds": 30, "labels": {"env": "prod", "old": null}}}.',
  access: 'write',
  permission: 'checks:write',
  input: z.strictObject({
    slug: slugArgument,
    changes: z.record(z.string(), z.unknown()).describe('The fields to change, as a JSON Merge Patch of the check definition.'),
  }),
  output: z.object({ check: checkResult }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(call) {
    const { slug, changes } = call.args;
    const updated = await changeCheck(call.deps.db.kysely, orgUidOf(call), slug, changes, call.deps.clock.now());
    return { structured: { check: (await checkViewsWithRuntime(call.deps, [updated]))[0] }, summary: `Changed check "${updated.slug}".` };
  },
});

/** `delete_check`: delete a check. */
export const deleteCheckTool = defineTool({
  name: 'delete_check',
  title: 'Delete a check',
  description:
    'Deletes a check of the organization for good: it stops being run, leaves the status pages that listed it, and its ' +
    'incidents keep its slug. There is no undo; confirm with the user first. Example: {"slug": "api-health"}.',
  access: 'write',
  permission: 'checks:write',
  input: z.strictObject({ slug: slugArgument }),
  output: z.object({ deleted: z.literal(true), slug: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(call) {
    await removeCheck(call.deps.db.kysely, orgUidOf(call), call.args.slug, call.deps.clock.now());
    return { structured: { deleted: true as const, slug: call.args.slug }, summary: `Deleted check "${call.args.slug}".` };
  },
});
