// Compiled by test/contract/route-typing.test.ts with `tsc --noEmit`, never run: each
// `@ts-expect-error` marks a route declaration that must not compile. When one compiles after all
// (the route typing lost its teeth), tsc reports the directive as unused and the test fails.
import { route } from '../../daemon/http/route.js';

export const right = route({
  method: 'GET',
  path: '/orgs/:org/check-states',
  permission: 'checks:read',
  response: 'CheckStateCounts',
  summary: 'The right shape, with the path parameter the path has.',
  handler: async ({ params }) => ({ total: params.org.length, counts: { pending: 0, up: 0, degraded: 0, down: 0, paused: 0, maintenance: 0 } }),
});

export const wrongShape = route({
  method: 'GET',
  path: '/orgs/:org/check-states',
  permission: 'checks:read',
  response: 'CheckStateCounts',
  summary: 'A field renamed: `totals` is not in the contract.',
  // @ts-expect-error the handler returns a shape that is not the declared response's
  handler: async () => ({ totals: 0, counts: { pending: 0, up: 0, degraded: 0, down: 0, paused: 0, maintenance: 0 } }),
});

export const bodyWithoutResponse = route({
  method: 'GET',
  path: '/orgs/:org/check-states',
  permission: 'checks:read',
  summary: 'A body answered by a route that declares none.',
  // @ts-expect-error a route without `response` answers no body
  handler: async () => ({ total: 0 }),
});

export const unknownParameter = route({
  method: 'GET',
  path: '/orgs/:org/checks/:slug',
  permission: 'checks:read',
  response: 'Check',
  summary: 'A path parameter the path does not have.',
  async handler({ params }) {
    // @ts-expect-error `uid` is not a parameter of /orgs/:org/checks/:slug
    const uid: string = params.uid;
    throw new Error(`${params.org} ${params.slug} ${uid}`);
  },
});

export const unknownResponse = route({
  method: 'GET',
  path: '/health',
  permission: 'public',
  // @ts-expect-error `Healthy` names no answer of the contract
  response: 'Healthy',
  summary: 'A response name the contract does not have.',
  handler: async () => ({ status: 'ok', version: '1', database: 'sqlite' }),
});
