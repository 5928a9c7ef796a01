import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { AuthContext } from '../access/auth-context.js';
import type { OrgPermission, Role } from '../access/permissions.js';
import type { Organization } from '../db/schema.js';
import type { AppDeps } from '../deps.js';

/**
 * What a tool does to the organization: `read` tools are open to `mcp:read` tokens and to
 * viewers; `write` tools need the `mcp` scope and a role that may change the resource.
 */
export type ToolAccess = 'read' | 'write';

/** A JSON Schema document, as plain JSON. */
export type JsonSchemaObject = Record<string, unknown>;

/** What a tool's `run` receives: validated arguments and, for organization tools, where and as whom. */
export interface ToolCall<Args> {
  deps: AppDeps;
  auth: AuthContext;
  /** The organization acted on; set exactly when the tool declares a `permission`. */
  org?: Organization;
  /** The caller's role in `org`, read from the database for this call. */
  role?: Role;
  args: Args;
}

/**
 * A tool's answer: the structured result and a summary for people. The SDK checks the result
 * against the tool's `output` schema before sending it, so a mismatch fails loudly in tests;
 * the static type stays `object` because the stored shapes are interfaces, not index maps.
 */
export interface ToolOutcome {
  structured: object;
  summary: string;
}

/**
 * One MCP tool, as data. The server authorizes every call from `access` and `permission`
 * before `input` is parsed and `run` is called, so no tool can forget the check.
 */
export interface McpTool<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for an agent: what the tool does, when to use it, and an example call. */
  description: string;
  access: ToolAccess;
  /**
   * The organization permission the caller's current role must grant. Tools without one
   * (the check-type catalog) act on no organization and take no `org` argument.
   */
  permission?: OrgPermission;
  /** The arguments, without `org` (the server adds it for organization tools). */
  input: In;
  /**
   * JSON Schemas published in `tools/list` in place of the ones derived from `input`, by
   * property. Used where the parse is deliberately loose so that the check catalog, not the
   * argument parser, reports every problem of a candidate check with its path.
   */
  listedProperties?: Record<string, JsonSchemaObject>;
  output: Out;
  annotations?: ToolAnnotations;
  run(call: ToolCall<z.output<In>>): Promise<ToolOutcome>;
}

/** Declares a tool with its argument and result types inferred from the schemas. */
export const defineTool = <In extends z.ZodObject, Out extends z.ZodObject>(tool: McpTool<In, Out>): McpTool<In, Out> => tool;

/** The organization of an organization tool's call (the server has resolved it before `run`). */
export function orgUidOf(call: ToolCall<unknown>): string {
  if (!call.org) throw new Error('an organization tool ran without an organization');
  return call.org.uid;
}
