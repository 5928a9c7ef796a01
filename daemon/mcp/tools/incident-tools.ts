import { z } from 'zod';
import { CURSOR_PATTERN, PAGE_SIZES } from '../../http/pagination.js';
import { INCIDENT_STATUSES, listIncidents } from '../../incidents/incident-store.js';
import { cursorArgument } from '../schemas.js';
import { defineTool, orgUidOf } from '../tool.js';

// The same page sizes and cursors as GET /orgs/{org}/incidents.
const { defaultLimit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT } = PAGE_SIZES;

const actorResult = z.object({ uid: z.string(), email: z.string(), name: z.string() }).nullable();

/** `list_incidents`: the organization's incidents, newest first. */
export const listIncidentsTool = defineTool({
  name: 'list_incidents',
  title: 'List incidents',
  description:
    "Lists the organization's incidents, newest first, optionally of one status (open, acknowledged, resolved), with the " +
    'check each is about and who opened, acknowledged and resolved it. Use it to see what is failing now or what failed ' +
    `recently. Answers at most "limit" incidents (default ${DEFAULT_LIMIT}); when nextCursor is not null, call again with it as "cursor". ` +
    'Example: {"status": "open"}.',
  access: 'read',
  permission: 'incidents:read',
  input: z.strictObject({
    status: z
      .enum(INCIDENT_STATUSES as unknown as [string, ...string[]])
      .optional()
      .describe('Only incidents in this status.'),
    limit: z.int().min(1).max(MAX_LIMIT).optional().describe(`At most this many incidents (1-${MAX_LIMIT}).`),
    cursor: cursorArgument.regex(CURSOR_PATTERN, 'is not a cursor this tool returned').optional(),
  }),
  output: z.object({
    items: z.array(
      z.looseObject({
        uid: z.string(),
        title: z.string(),
        status: z.string(),
        checkSlug: z.string().nullable(),
        openedBy: actorResult,
        createdAt: z.string(),
        acknowledgedAt: z.string().nullable(),
        acknowledgedBy: actorResult,
        resolvedAt: z.string().nullable(),
        resolvedBy: actorResult,
        updatedAt: z.string(),
      }),
    ),
    nextCursor: z.string().nullable().describe('Pass as "cursor" for the next page; null on the last page.'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(call) {
    const { status, limit, cursor } = call.args;
    const page = await listIncidents(call.deps.db.kysely, orgUidOf(call), {
      status: status as (typeof INCIDENT_STATUSES)[number] | undefined,
      limit: limit ?? DEFAULT_LIMIT,
      cursor,
    });
    const open = page.items.filter((incident) => incident.status !== 'resolved').length;
    return { structured: page, summary: `${page.items.length} incidents, ${open} of them not resolved.` };
  },
});
