import { VERSION } from '../version.js';
import { route, type RouteSpec } from './route.js';

export const healthRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/health',
    permission: 'public',
    summary: 'Liveness: answers once the daemon accepts requests.',
    handler: async ({ deps }) => ({ status: 'ok', version: VERSION, database: deps.db.kind }),
  }),
];
