import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Role } from '../../../daemon/access/permissions.js';
import type { TestDaemon } from '../../support/daemon.js';
import { addMember } from '../../support/members.js';

/** The MCP endpoint of a test daemon. */
export const mcpUrl = (daemon: TestDaemon): URL => new URL(`${daemon.url}/api/v1/mcp`);

/** The SDK's own client, connected over real HTTP with a bearer token. */
export async function connectMcp(daemon: TestDaemon, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(daemon), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'svc-test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its result with the text of its content joined. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { ...result, text };
}

/** Mints a personal access token through the API. */
export async function mintToken(daemon: TestDaemon, sessionToken: string, scopes: string[] | undefined, org = 'default'): Promise<string> {
  const res = await daemon.request('POST', '/auth/tokens', {
    token: sessionToken,
    body: { name: `mcp ${scopes?.join(' ') ?? 'default'}`, org, ...(scopes ? { scopes } : {}) },
  });
  if (res.status !== 201) throw new Error(`minting a token answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

/** A member of `default` with `role`, signed in: its session token and uid. */
export const member = (daemon: TestDaemon, email: string, role: Role) => addMember(daemon, email, role);

/** How many checks the organization has, read straight from the database. */
export async function checkCount(daemon: TestDaemon, orgSlug = 'default'): Promise<number> {
  const db = daemon.deps.db.kysely;
  const row = await db
    .selectFrom('checks')
    .innerJoin('organizations', 'organizations.uid', 'checks.organization_uid')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organizations.slug', '=', orgSlug)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const READ_TOOLS = ['list_check_types', 'get_check_type_sample', 'validate_check', 'list_checks', 'get_check', 'list_incidents', 'get_check_results'];
export const WRITE_TOOLS = ['create_check', 'update_check', 'delete_check', 'run_check'];
export const ALL_TOOLS = [
  'list_check_types',
  'get_check_type_sample',
  'validate_check',
  'create_check',
  'list_checks',
  'get_check',
  'update_check',
  'delete_check',
  'list_incidents',
  'get_check_results',
  'run_check',
];
