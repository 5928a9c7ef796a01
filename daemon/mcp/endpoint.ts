import type { Context, Middleware } from 'koa';
import { authenticateRequest } from '../access/authenticate.js';
import type { AppDeps } from '../deps.js';
import { AppError, forbidden } from '../errors.js';
import { readRawBody, refuseDeepNesting, tryParseJson } from '../http/body.js';
import { refuseNulStrings } from '../http/nul-bytes.js';
import { hasMcpScope } from './authorize.js';

/** The largest JSON-RPC request body accepted, as for JSON bodies of the REST API. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The body, read here rather than by the transport so that it is held to the same limits as the
 * REST API's JSON bodies (size: 413; nesting depth: 400 VALIDATION_FAILED). What is not JSON is
 * handed on as a value that is no JSON-RPC message, which the transport answers with its own
 * parse error (-32700), after its checks of the Accept and Content-Type headers.
 */
async function readMcpBody(ctx: Context): Promise<unknown> {
  const raw = await readRawBody(ctx, MAX_BODY_BYTES);
  const parsed = tryParseJson(raw.toString('utf8'));
  return parsed ? refuseNulStrings(refuseDeepNesting(parsed.value)) : NOT_JSON;
}

const NOT_JSON = Object.freeze({ notJson: true });

/**
 * The MCP endpoint: Streamable HTTP, stateless, behind the bearer authentication of the REST
 * API. Each POST gets its own server and transport, so any replica can answer any request and
 * nothing of a caller outlives the request. Answers JSON rather than event streams, because no
 * tool streams progress.
 */
export function mcpEndpoint(deps: AppDeps, path: string): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== path) return next();
    // Named like a REST route in the request log and the request metrics.
    (ctx as { _matchedRoute?: string })._matchedRoute = path;
    const auth = await authenticateRequest(deps, ctx);
    if (!auth) {
      throw new AppError(
        'UNAUTHORIZED',
        'Authentication required: send "Authorization: Bearer <token>", a personal access token with the mcp or mcp:read scope (or a session token).',
        undefined,
        { 'WWW-Authenticate': 'Bearer realm="svc"' },
      );
    }
    if (auth.user.must_change_password) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED', 'Change the built-in password first (POST /api/v1/auth/password).');
    }
    if (!hasMcpScope(auth.scopes)) {
      throw forbidden(`This access token's scopes (${auth.scopes.join(', ')}) do not allow the MCP endpoint; it needs mcp or mcp:read.`);
    }
    if (ctx.method !== 'POST') {
      // A stateless server has no event stream to open (GET) and no session to end (DELETE);
      // the transport specification answers both with 405.
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: send every MCP message with POST; this endpoint keeps no sessions or streams.' },
        id: null,
      };
      return;
    }
    const parsedBody = await readMcpBody(ctx);
    // The SDK and the tools load with the first MCP request: a daemon nobody asks over MCP does
    // not hold them (about 10 MiB of heap).
    const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('./server.js'),
    ]);
    const server = createMcpServer(deps, auth);
    // No Origin or Host checks against DNS rebinding: every request carries a bearer token,
    // which a page on another origin cannot obtain, and no cookie is ever accepted here.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The transport writes the response itself.
    ctx.respond = false;
    try {
      await transport.handleRequest(ctx.req, ctx.res, parsedBody);
    } catch (error) {
      if (!ctx.res.headersSent) {
        ctx.respond = true;
        throw error;
      }
      deps.logger.error({ err: error }, 'the MCP transport failed after answering');
    }
  };
}
