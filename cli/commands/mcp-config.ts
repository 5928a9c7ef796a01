import { PERSONAL_TOKEN_PREFIX } from '../client.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';

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

/**
 * `svc mcp config [--token T] [--name N]`: prints the snippet on stdout, so that it can be
 * redirected into a client's configuration file; advice goes to stderr.
 */
export async function run(options: { name?: string }, deps: CommandDeps): Promise<void> {
  const name = options.name ?? 'svc';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw usageError('--name takes 1 to 64 letters, digits, "-" or "_"');
  const { url, token } = deps.target();
  deps.out.json(mcpClientConfig(url, token, name));
  if (!token) {
    deps.out.warn(`no token given: replace ${TOKEN_PLACEHOLDER} with a personal access token, e.g. from: svc token create --name agent --org ORG --scope mcp`);
  } else if (!token.startsWith(PERSONAL_TOKEN_PREFIX)) {
    deps.out.warn(
      'this is a session token: it expires with the session, and every organization tool then needs an "org" argument; ' +
        'a personal access token (svc token create --scope mcp or --scope mcp:read) suits an agent better',
    );
  }
}
