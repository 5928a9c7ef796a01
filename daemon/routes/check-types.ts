import { requireSample, runnableCheckTypes } from '../checks/check-types.js';
import { route, type RouteSpec } from '../http/route.js';

/** The check-type catalog: the same one the importers and the MCP tools use. */
export const checkTypeRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/check-types',
    permission: 'authenticated',
    response: 'CheckTypeList',
    summary:
      'Every check type: type, title, description, what its target means, the JSON Schema of its config, and whether this daemon can run it (runnable, and reason when not).',
    handler: async ({ deps }) => runnableCheckTypes(deps.caches),
  }),
  route({
    method: 'GET',
    path: '/check-types/:type/sample',
    permission: 'authenticated',
    response: 'Check',
    summary: 'A complete, valid check definition of the type.',
    handler: async ({ params }) => requireSample(params.type),
  }),
];
