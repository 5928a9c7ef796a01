import { z } from 'zod';
import { checkTypeNames } from '../../../checks/index.js';
import { CHECK_PAGE, parseCheckListQuery } from '../../checks/check-list-query.js';
import { checkViewsWithRuntime, pingUrlsFor } from '../../runner/check-runtime.js';
import { requireCommittedCheck } from '../../checks/check-commands.js';
import { listChecks } from '../../checks/check-store.js';
import { CHECK_STATES } from '../../runner/state-machine.js';
import { checkResult, cursorArgument, slugArgument } from '../schemas.js';
import { defineTool, orgUidOf } from '../tool.js';

/** `list_checks`: the organization's checks, filtered by labels and type, a page at a time. */
export const listChecksTool = defineTool({
  name: 'list_checks',
  title: 'List checks',
  description:
    "Lists the organization's checks in creation order, optionally only those carrying every label given and of one type. " +
    'Use it to see what is already monitored before creating a check, or to find the slug of one to read, change or delete. ' +
    `Answers at most "limit" checks (default ${CHECK_PAGE.defaultLimit}); when nextCursor is not null, call again with it as "cursor" for more. ` +
    'Example: {"label": ["team=payments", "env=prod"], "type": "http"}.',
  access: 'read',
  permission: 'checks:read',
  input: z.strictObject({
    label: z
      .union([z.string(), z.array(z.string()).max(20)])
      .optional()
      .describe('A label filter "key=value", or a list of them (a check must carry every one).'),
    type: z
      .string()
      .optional()
      .describe(`Only checks of this type: ${checkTypeNames.join(', ')}.`),
    state: z
      .enum(CHECK_STATES as unknown as [string, ...string[]])
      .optional()
      .describe('Only checks in this state (paused means disabled).'),
    limit: z.int().min(1).max(CHECK_PAGE.maxLimit).optional().describe(`At most this many checks (1-${CHECK_PAGE.maxLimit}).`),
    cursor: cursorArgument.optional(),
  }),
  output: z.object({
    items: z.array(checkResult),
    nextCursor: z.string().nullable().describe('Pass as "cursor" for the next page; null on the last page.'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(call) {
    const { label, type, state, limit, cursor } = call.args;
    // The REST query parser, so both surfaces accept and refuse the same filters with the same words.
    const query = new URLSearchParams();
    for (const filter of label === undefined ? [] : [label].flat()) query.append('label', filter);
    if (type !== undefined) query.set('type', type);
    if (state !== undefined) query.set('state', state);
    if (limit !== undefined) query.set('limit', String(limit));
    if (cursor !== undefined) query.set('cursor', cursor);
    const page = await listChecks(call.deps.db.kysely, orgUidOf(call), parseCheckListQuery(query));
    const items = pingUrlsFor(call.role, await checkViewsWithRuntime(call.deps, page.items));
    const more = page.nextCursor ? '; more with the cursor in nextCursor' : '';
    return { structured: { items, nextCursor: page.nextCursor }, summary: `${items.length} checks${more}.` };
  },
});

/** `get_check`: one check in full. */
export const getCheckTool = defineTool({
  name: 'get_check',
  title: 'Get a check',
  description:
    'Returns one check of the organization in full: its type, target, config, thresholds, labels, timestamps, state and last result. Use it before ' +
    'update_check to see the current values. Example: {"slug": "api-health"}.',
  access: 'read',
  permission: 'checks:read',
  input: z.strictObject({ slug: slugArgument }),
  output: z.object({ check: checkResult }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(call) {
    const [check] = pingUrlsFor(call.role, await checkViewsWithRuntime(call.deps, [await requireCommittedCheck(call.deps.db, orgUidOf(call), call.args.slug)]));
    return { structured: { check }, summary: `Check "${check.slug}" (${check.type}, ${check.enabled ? 'enabled' : 'disabled'}).` };
  },
});
