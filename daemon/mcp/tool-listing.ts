import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { JsonSchemaObject, McpTool } from './tool.js';

/** How the caller signed in: a personal access token (bound to one organization) or a session. */
export type CallerKind = 'token' | 'session';

// Draft 7, as the SDK itself publishes tool schemas and as its client's validator reads them.
const toJson = (schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject => z.toJSONSchema(schema, { target: 'draft-7', io }) as JsonSchemaObject;

// Built once per tool; every listing gets copies, so nothing done to one leaks into the next.
const built = new WeakMap<McpTool, { input: JsonSchemaObject; output: JsonSchemaObject }>();

function schemasOf(tool: McpTool): { input: JsonSchemaObject; output: JsonSchemaObject } {
  let schemas = built.get(tool);
  if (!schemas) {
    schemas = { input: toJson(tool.input, 'input'), output: toJson(tool.output, 'output') };
    built.set(tool, schemas);
  }
  return structuredClone(schemas);
}

const ORG_DESCRIPTION: Record<CallerKind, string> = {
  session: 'The slug of the organization to act on, e.g. "default". Required with a session token.',
  token: "Optional: an access token acts on its own organization. When given, it must be that organization's slug.",
};

/**
 * The `tools/list` entry of a tool for this kind of caller: organization tools take an `org`
 * argument, required with a session token and optional with an access token (which names its
 * organization itself).
 */
export function toolDefinition(tool: McpTool, caller: CallerKind): Tool {
  const { input, output } = schemasOf(tool);
  const properties: Record<string, object> = { ...(input.properties as Record<string, object> | undefined), ...structuredClone(tool.listedProperties) };
  const required = [...((input.required as string[] | undefined) ?? [])];
  if (tool.permission) {
    properties.org = { type: 'string', minLength: 1, description: ORG_DESCRIPTION[caller] };
    if (caller === 'session') required.unshift('org');
  }
  const inputSchema: Tool['inputSchema'] = { ...input, type: 'object', properties };
  if (required.length > 0) inputSchema.required = required;
  else delete inputSchema.required;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema,
    outputSchema: { ...output, type: 'object' as const },
    annotations: { title: tool.title, ...tool.annotations },
  };
}
