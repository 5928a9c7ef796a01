import { buildOpenApiDocument } from '../openapi/openapi-document.js';
import { VERSION } from '../version.js';
import { route, type RouteSpec } from '../http/route.js';

/** `GET /openapi.json`, built from the whole route table (about 2 ms, so it is not kept). */
export function openApiRoutes(allRoutes: () => RouteSpec[]): RouteSpec[] {
  return [
    route({
      method: 'GET',
      path: '/openapi.json',
      permission: 'public',
      response: 'OpenApiDocument',
      summary: 'The OpenAPI 3.1 document of this API, generated from the route table.',
      handler: async ({ deps }) => buildOpenApiDocument(allRoutes(), { version: VERSION, serverUrl: `${deps.config.baseUrl.replace(/\/+$/, '')}/api/v1` }),
    }),
  ];
}
