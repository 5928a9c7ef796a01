import type { MintedToken } from '../../contract/index.js';
import { PERSONAL_TOKEN_PREFIX } from '../client.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { resolveOrg } from './checks-org.js';

/** Put in place of the token when none is known, for the user to fill in. */
export const TOKEN_PLACEHOLDER = '<TOKEN>';

/** The entry of one server in an MCP client's configuration: Streamable HTTP with a bearer token. */
export interface McpServerEntry {
  type: 'http';
  url: string;
  headers: { Authorization: string };
}

/**
 * The configuration snippet an MCP client needs for the daemon at `baseUrl`: the endpoint URL and
 * the Authorization header, under the `mcpServers` key most clients read.
 */
export function mcpClientConfig(baseUrl: string, token: string | undefined, name = 'svc'): { mcpServers: Record<string, McpServerEntry> } {
  return {
    mcpServers: {
      [name]: {
        type: 'http',
        url: `${baseUrl.replace(/\/+$/, '')}/api/v1/mcp`,
        headers: { Authorization: `Bearer ${token ?? TOKEN_PLACEHOLDER}` },
      },
    },
  };
}

/** What `svc mcp config` takes besides the global flags. */
interface Options {
  name?: string;
  client?: string;
  org?: string;
  readOnly?: boolean;
}

/**
 * `svc mcp config [--client C] [--read-only] [--org O] [--name N]`: prints the snippet on stdout,
 * so that it can be redirected into a client's configuration file; advice goes to stderr.
 * Signed in with a session, it mints a personal access token for the client (scope `mcp`, or
 * `mcp:read` with --read-only, named after the client) rather than hand the agent the session,
 * which would expire and could do anything the account can. A personal access token given
 * with --token or SVC_TOKEN is used as it is.
 */
export async function run(options: Options, deps: CommandDeps): Promise<void> {
  const name = options.name ?? 'svc';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw usageError('--name takes 1 to 64 letters, digits, "-" or "_"');
  const client = (options.client ?? `mcp-${name}`).trim();
  if (client === '' || client.length > 100) throw usageError('--client takes the name of the MCP client, 1 to 100 characters');
  const { url, token } = deps.target();
  if (!token) {
    deps.out.json(mcpClientConfig(url, undefined, name));
    deps.out.warn(`no token given: replace ${TOKEN_PLACEHOLDER} with a personal access token, e.g. from: svc token create --name agent --org ORG --scope mcp`);
    return;
  }
  if (token.startsWith(PERSONAL_TOKEN_PREFIX)) {
    deps.out.json(mcpClientConfig(url, token, name));
    return;
  }
  const api = deps.client();
  const org = await resolveOrg(options, deps);
  const scope = options.readOnly ? 'mcp:read' : 'mcp';
  const minted = await api.post<MintedToken>('/auth/tokens', { name: client, org, scopes: [scope], expiresAt: null });
  deps.out.json(mcpClientConfig(url, minted.token, name));
  // On stderr: stdout holds only the snippet, to be redirected into the client's file.
  process.stderr.write(
    `minted the personal access token "${minted.name}" (${minted.uid}) for ${minted.org} with the scope ${scope}; ` +
      `it works until revoked: svc token revoke ${minted.uid}\n`,
  );
}
