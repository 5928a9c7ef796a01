import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AuthContext } from '../access/auth-context.js';
import type { AppDeps } from '../deps.js';
import { VERSION } from '../version.js';
import { callableTools } from './authorize.js';
import { callTool } from './tool-call.js';
import { toolDefinition, type CallerKind } from './tool-listing.js';
import { MCP_TOOLS } from './tools/index.js';

// The SDK parses arguments before a handler runs; this lets every argument through to
// callTool, which authorizes the call first and then parses with the tool's own schema.
const ANY_ARGUMENTS = z.looseObject({});

function instructions(caller: CallerKind): string {
  const org =
    caller === 'token'
      ? 'This access token acts on its own organization; no "org" argument is needed.'
      : 'You are signed in with a session: every tool that works on an organization needs "org", the slug of that organization.';
  return [
    'svc manages the checks (monitors) of an organization and shows its incidents.',
    'To add a check: list_check_types, then get_check_type_sample {type} for a complete example, adapt it, call validate_check ' +
      'until it answers valid: true, then create_check. list_checks, get_check, update_check and delete_check manage existing checks; ' +
      'list_incidents shows incidents.',
    org,
    "Only the tools you may call are listed. Your role and your token's scopes are read again on every call; a refused call " +
      'answers with a tool error saying whether the scope or the role refused it.',
  ].join('\n');
}

/**
 * The MCP server for one request of one caller: every tool registered, `tools/list` narrowed to
 * the tools the caller may call now, every call authorized again when it is made.
 */
export function createMcpServer(deps: AppDeps, auth: AuthContext): McpServer {
  const caller: CallerKind = auth.token ? 'token' : 'session';
  const server = new McpServer({ name: 'svc', title: 'svc monitoring', version: VERSION }, { instructions: instructions(caller) });
  for (const tool of MCP_TOOLS) {
    // Refused tools stay registered, so that calling one answers why rather than "not found".
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: ANY_ARGUMENTS, outputSchema: tool.output, annotations: tool.annotations },
      (args) => callTool(deps, auth, tool, args),
    );
  }
  // Replaces the SDK's listing, which would show every registered tool to everyone.
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await callableTools(deps, auth, MCP_TOOLS)).map((tool) => toolDefinition(tool, caller)),
  }));
  return server;
}
