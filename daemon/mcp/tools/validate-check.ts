import { z } from 'zod';
import { validateCheck } from '../../../checks/index.js';
import { can } from '../../access/permissions.js';
import { getCheck } from '../../checks/check-store.js';
import { missingReferences } from '../../secrets/secret-store.js';
import { CHECK_INPUT_JSON_SCHEMA, checkArgument, issueResult } from '../schemas.js';
import { defineTool, orgUidOf } from '../tool.js';

/**
 * `validate_check`: the catalog's validation of a candidate check, writing nothing. A read tool:
 * it changes nothing, so `mcp:read` tokens and viewers may use it to check their work too. Which
 * secrets are not set is told only to a role that may create checks (as REST's validate, which
 * needs `checks:write`): to a viewer it would tell which secret names exist.
 */
export const validateCheckTool = defineTool({
  name: 'validate_check',
  title: 'Validate a check',
  description:
    'Checks a candidate check definition without saving anything. Answers valid: true with the normalised check (defaults ' +
    'filled in, slug derived from the name) and whether its slug is already used in the organization, or valid: false with ' +
    'every problem and its field path (e.g. "config.method", "thresholds.timeoutMs"). Credentials are never written into a ' +
    'check: credential fields take a secret reference such as {{secrets.DB_PASSWORD}}, and missingSecrets lists the ' +
    'referenced secrets the organization has not set (an admin sets them with svc secrets set NAME). Use it before ' +
    'create_check, fix every issue listed, and validate again. Example: {"check": {"name": "API health", "type": "http", "target": "https://api.example.com/health"}}.',
  access: 'read',
  permission: 'checks:read',
  input: z.strictObject({ check: checkArgument }),
  listedProperties: { check: CHECK_INPUT_JSON_SCHEMA },
  output: z.object({
    valid: z.boolean(),
    check: z.record(z.string(), z.unknown()).optional().describe('The normalised check, when valid.'),
    slugInUse: z.boolean().optional().describe('Whether a check with this slug already exists (create_check would refuse it).'),
    missingSecrets: z
      .array(z.string())
      .optional()
      .describe(
        'The secrets the check refers to that are not set in the organization; the check fails until they are. Told only to roles that may create checks.',
      ),
    issues: z.array(issueResult).optional().describe('Every problem, when not valid.'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(call) {
    const result = validateCheck(call.args.check);
    if (!result.ok) {
      const lines = result.issues.map((issue) => `- ${issue.path || '(the check)'}: ${issue.message}`);
      return { structured: { valid: false, issues: result.issues }, summary: `The check is not valid:\n${lines.join('\n')}` };
    }
    const orgUid = orgUidOf(call);
    const slugInUse = (await getCheck(call.deps.db.kysely, orgUid, result.check.slug)) !== undefined;
    if (!call.role || !can(call.role, 'checks:write')) {
      const summary = slugInUse
        ? `The check is valid, but the slug "${result.check.slug}" is already used in this organization.`
        : `The check is valid; create_check would store it with the slug "${result.check.slug}".`;
      return { structured: { valid: true, check: result.check, slugInUse }, summary };
    }
    const missingSecrets = await missingReferences(call.deps, orgUid, result.check);
    let summary = slugInUse
      ? `The check is valid, but the slug "${result.check.slug}" is already used in this organization: set another "slug", or change that check with update_check.`
      : `The check is valid; create_check would store it with the slug "${result.check.slug}".`;
    if (missingSecrets.length > 0)
      summary += ` It refers to secrets that are not set: ${missingSecrets.join(', ')} (svc secrets set NAME); it fails until they are.`;
    return { structured: { valid: true, check: result.check, slugInUse, missingSecrets }, summary };
  },
});
