import { checkTypeNames, listCheckTypes, sampleCheck, type CheckTypeSummary } from '../../importers/catalog/index.js';
import { notFound } from '../errors.js';
import { route, type RouteSpec } from './route.js';

// The catalog is fixed for the life of the process; its JSON Schemas are built once.
let catalog: CheckTypeSummary[] | undefined;

/** The check-type catalog: the same one the importers and the MCP tools use. */
export const checkTypeRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/check-types',
    permission: 'authenticated',
    summary: 'Every check type: type, title, description, what its target means, and the JSON Schema of its config.',
    handler: async () => (catalog ??= listCheckTypes()),
  }),
  route({
    method: 'GET',
    path: '/check-types/:type/sample',
    permission: 'authenticated',
    summary: 'A complete, valid check definition of the type.',
    async handler({ params }) {
      const sample = sampleCheck(params.type);
      if (!sample) throw notFound(`No check type "${params.type}"; known types: ${checkTypeNames.join(', ')}.`);
      return sample;
    },
  }),
];
