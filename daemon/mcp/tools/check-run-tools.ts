import { z } from 'zod';
import { requireCommittedCheck } from '../../checks/check-commands.js';
import { statesOf } from '../../runner/check-runtime.js';
import { listResults, parseResultsQuery } from '../../runner/result-queries.js';
import { runCheckNow } from '../../runner/run-now.js';
import { slugArgument } from '../schemas.js';
import { defineTool, orgUidOf } from '../tool.js';

const resultOutput = z.object({
  at: z.string(),
  status: z.enum(['up', 'degraded', 'down']),
  latencyMs: z.number(),
  message: z.string(),
});

/** `get_check_results`: a check's recent results, newest first. */
export const getCheckResultsTool = defineTool({
  name: 'get_check_results',
  title: 'Get check results',
  description:
    'Returns the recent results of one check, newest first: when it ran, up/degraded/down, the latency and a short message ' +
    'saying why it failed. Use it to find out why a check is down or since when. Answers at most "limit" results (default 20); ' +
    'when nextCursor is not null, call again with it as "cursor" for older ones. Example: {"slug": "api-health", "limit": 10}.',
  access: 'read',
  permission: 'checks:read',
  input: z.strictObject({
    slug: slugArgument,
    limit: z.int().min(1).max(1000).optional().describe('At most this many results (1-1000, default 20).'),
    cursor: z
      .string()
      .regex(/^\d{1,16}$/, 'is not a cursor this tool returned')
      .optional()
      .describe('The nextCursor of the previous answer.'),
    from: z.string().optional().describe('Only results at or after this ISO-8601 time.'),
    to: z.string().optional().describe('Only results at or before this ISO-8601 time.'),
  }),
  output: z.object({ items: z.array(resultOutput), nextCursor: z.string().nullable() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(call) {
    const { slug, limit, cursor, from, to } = call.args;
    // The REST query parser, so both surfaces refuse the same values with the same words.
    const query = new URLSearchParams({ limit: String(limit ?? 20) });
    if (cursor !== undefined) query.set('cursor', cursor);
    if (from !== undefined) query.set('from', from);
    if (to !== undefined) query.set('to', to);
    const parsed = parseResultsQuery(query);
    const check = await requireCommittedCheck(call.deps.db, orgUidOf(call), slug);
    const nowMs = call.deps.clock.now().getTime();
    const state = (await statesOf(call.deps.db.kysely, [check.uid], nowMs)).get(check.uid)!;
    const page = await listResults(call.deps.db.kysely, Number(state.series), parsed, nowMs);
    const latest = page.items[0];
    const summary = latest ? `${page.items.length} results; the latest (${latest.at}) is ${latest.status}: ${latest.message}.` : 'No results yet.';
    return { structured: page, summary };
  },
});

/** `run_check`: runs a check now and answers the result. */
export const runCheckTool = defineTool({
  name: 'run_check',
  title: 'Run a check now',
  description:
    'Runs one check immediately, outside its schedule, and answers the result (up, degraded or down, latency, message). The ' +
    'result is recorded and counts towards the check state like any scheduled run. Use it to confirm a fix or a new check. ' +
    'Example: {"slug": "api-health"}.',
  access: 'write',
  permission: 'checks:write',
  input: z.strictObject({ slug: slugArgument }),
  output: z.object({ result: resultOutput }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(call) {
    const org = orgUidOf(call);
    const result = await runCheckNow(call.deps, org, await requireCommittedCheck(call.deps.db, org, call.args.slug));
    return { structured: { result }, summary: `Check "${call.args.slug}" is ${result.status} (${result.latencyMs} ms): ${result.message}.` };
  },
});
