import { z } from 'zod';
import { can, ROLES, type OrgPermission } from '../access/permissions.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { isOrgPermission, isStateChanging, type RouteSpec } from '../http/route.js';
import { REQUEST_SCHEMAS, RESPONSE_SCHEMAS, SCHEMA_COMPONENTS } from './response-schemas.js';

type Json = Record<string, unknown>;

/** Who may call a route, in words, for the operation's description. */
function whoMayCall(route: RouteSpec): string {
  if (route.permission === 'public') return 'Anyone, without a credential.';
  if (route.permission === 'authenticated') return 'Any signed-in account (session or personal access token).';
  if (route.permission === 'superAdmin') return 'A super admin.';
  const lowest = [...ROLES].reverse().find((role) => can(role, route.permission as OrgPermission));
  return `A member of the organization whose role grants \`${route.permission}\` (${lowest ?? 'no role'} and above).`;
}

/** The error codes a route can answer with, from what it declares. */
function errorCodes(route: RouteSpec): ErrorCode[] {
  const codes: ErrorCode[] = ['INTERNAL'];
  if (route.body || route.rawBodyLimit || route.method === 'GET') codes.push('VALIDATION_FAILED');
  if (route.body) codes.push('UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE');
  if (route.rawBodyLimit) codes.push('PAYLOAD_TOO_LARGE');
  if (route.permission !== 'public') codes.push('UNAUTHORIZED', 'FORBIDDEN');
  if (route.permission !== 'public' && !route.allowDuringPasswordChange) codes.push('PASSWORD_CHANGE_REQUIRED');
  if (isOrgPermission(route.permission) || route.path.includes('/:')) codes.push('NOT_FOUND');
  if (isStateChanging(route.method)) codes.push('CONFLICT');
  return [...new Set(codes)];
}

function requestBody(route: RouteSpec): Json | undefined {
  if (route.rawBodyLimit) {
    return { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  }
  if (!route.body) return undefined;
  if (route.bodyType) return { required: true, content: { 'application/json': { schema: REQUEST_SCHEMAS[route.bodyType] } } };
  let schema: Json;
  try {
    schema = z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) as Json;
  } catch {
    schema = {};
  }
  delete schema.$schema;
  return { required: false, content: { 'application/json': { schema } } };
}

/** The success answers of a route, from what it declares: its contract type, what it writes itself, or nothing (204). */
function successResponses(route: RouteSpec): Json {
  const success = String(route.status ?? 200);
  const noContent = { description: 'Done, no content.' };
  if (route.response) {
    const schema = RESPONSE_SCHEMAS[route.response];
    return {
      [success]: { description: `Success: ${route.response}.`, content: { 'application/json': { schema } } },
      ...(route.emptyAnswer ? { '204': noContent } : {}),
    };
  }
  const written = route.writes;
  if (written && 'redirect' in written) {
    return { '302': { description: 'A redirect to the next step of the sign-in.', headers: { Location: { schema: { type: 'string' } } } } };
  }
  if (written) {
    const schema = written.body ? RESPONSE_SCHEMAS[written.body] : { type: 'string' };
    return { [success]: { description: written.description, content: { [written.mediaType]: { schema } } } };
  }
  // A handler that returns nothing answers 204.
  return { '204': noContent };
}

function operation(route: RouteSpec): Json {
  const parameters = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const responses: Json = {
    ...successResponses(route),
    default: {
      description: `An error: ${errorCodes(route)
        .map((code) => `${ERROR_STATUS[code]} ${code}`)
        .join(', ')}.`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
  const body = requestBody(route);
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/:([A-Za-z]+)/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: route.summary,
    description: `Who may call it: ${whoMayCall(route)}`,
    tags: [route.path.split('/')[1] === 'orgs' ? (route.path.split('/')[3] ?? 'orgs') : route.path.split('/')[1]],
    'x-svc-permission': route.permission,
    security: route.permission === 'public' ? [] : [{ bearer: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the API, generated from the route table: every route with who may
 * call it, its parameters, its request body's schema (from the route's zod schema), its success
 * answer's schema (from the contract type it declares) and its errors.
 */
export function buildOpenApiDocument(routes: RouteSpec[], info: { version: string; serverUrl: string }): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route) };
  }
  // The MCP endpoint is answered by the MCP transport, not the route table.
  paths['/mcp'] = {
    post: {
      operationId: 'postMcp',
      summary: 'The MCP endpoint (Streamable HTTP): JSON-RPC messages of the Model Context Protocol; see docs/mcp.md.',
      description: 'Who may call it: a personal access token with the `mcp` or `mcp:read` scope, or a session.',
      tags: ['mcp'],
      'x-svc-permission': 'authenticated',
      security: [{ bearer: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': { description: 'A JSON-RPC answer, or an event stream.' },
        default: { description: 'An error.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc API',
      version: info.version,
      description: 'The HTTP API of svc. Lists answer `{items, nextCursor}`; errors answer `{error: {code, message, details?}}`.',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A session (from sign-in) or a personal access token.' } },
      schemas: {
        ...SCHEMA_COMPONENTS,
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
                message: { type: 'string' },
                details: { type: 'object' },
              },
            },
          },
        },
      },
    },
  };
}
