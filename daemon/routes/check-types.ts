import { checkTypeCatalog, requireSample } from '../checks/check-types.js';
import { route, type RouteSpec } from './route.js';

/** The check-type catalog: the same one the importers and the MCP tools use. */
export const checkTypeRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/check-types',
    permission: 'authenticated',
    summary: 'Every check type: type, title, description, what its target means, and the JSON Schema of its config.',
    handler: async () => checkTypeCatalog(),
  }),
  route({
    method: 'GET',
    path: '/check-types/:type/sample',
    permission: 'authenticated',
    summary: 'A complete, valid check definition of the type.',
    handler: async ({ params }) => requireSample(params.type),
  }),
];
