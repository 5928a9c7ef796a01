import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseWithIssues, type ValidationIssue } from '../../checks/issues.js';
import type { AuthContext } from '../access/auth-context.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { authorizeCall, ToolRefusal } from './authorize.js';
import type { McpTool } from './tool.js';

/** A tool error: the call happened and failed, and the text says why (agents read it and adjust). */
export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

const issueLines = (issues: readonly ValidationIssue[]): string => issues.map((issue) => `- ${issue.path || '(the value)'}: ${issue.message}`).join('\n');

/** An API error as a tool error: its code, its message, and every problem listed in its details. */
function appErrorText(error: AppError): string {
  const reason = typeof error.details?.reason === 'string' ? ` (${error.details.reason})` : '';
  const issues = Array.isArray(error.details?.issues) ? (error.details.issues as ValidationIssue[]) : [];
  return `${error.code}${reason}: ${error.message}${issues.length > 0 ? `\n${issueLines(issues)}` : ''}`;
}

/**
 * Runs one call of `tool`: authorizes it against the database now (scope, organization, the
 * member's current role), then parses the arguments, then runs it. Every failure, a refusal
 * included, is answered as a tool error that says why; nothing internal ever reaches the text.
 */
export async function callTool(deps: AppDeps, auth: AuthContext, tool: McpTool, rawArgs: Record<string, unknown> | undefined): Promise<CallToolResult> {
  try {
    const { org: orgArg, ...args } = rawArgs ?? {};
    if (orgArg !== undefined && typeof orgArg !== 'string') {
      return toolError(`Invalid arguments for ${tool.name}:\n${issueLines([{ path: 'org', message: 'expected the slug of an organization (a string)' }])}`);
    }
    // Authorized before the arguments are parsed: a refused caller learns that, not how to
    // phrase a call it may not make. Tools outside any organization ignore `org`.
    const access = await authorizeCall(deps, auth, tool, tool.permission ? orgArg : undefined);
    const parsed = parseWithIssues(tool.input, args);
    if (!parsed.ok) return toolError(`Invalid arguments for ${tool.name}:\n${issueLines(parsed.issues)}`);
    const outcome = await tool.run({ deps, auth, ...access, args: parsed.value });
    // The JSON again in the text, for clients that hand the model only the text content.
    return {
      content: [{ type: 'text', text: `${outcome.summary}\n\n${JSON.stringify(outcome.structured)}` }],
      structuredContent: outcome.structured as Record<string, unknown>,
    };
  } catch (error) {
    if (error instanceof ToolRefusal) return toolError(error.message);
    if (error instanceof AppError) return toolError(appErrorText(error));
    deps.logger.error({ err: error, tool: tool.name }, 'unexpected error in an MCP tool');
    return toolError('Something went wrong on our side; it has been logged.');
  }
}
