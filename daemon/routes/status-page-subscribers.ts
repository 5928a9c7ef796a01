import { notFound } from '../errors.js';
import { unknownQueryParameters } from '../http/pagination.js';
import { validationFailed } from '../errors.js';
import { route, type RouteSpec } from '../http/route.js';
import { countSubscribers, listSubscribers, removeSubscriber } from '../status-pages/subscribers/subscriptions.js';
import { subscribersCsv } from '../status-pages/subscribers/subscribers-csv.js';
import { statusPageOf } from './status-pages.js';

/**
 * A status page's e-mail subscribers, for its owners: how many there are (members who may read
 * the page), and the addresses themselves (personal data: export and removal need the right to
 * change the page).
 */
export const statusPageSubscriberRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/status-pages/:slug/subscribers',
    permission: 'status-pages:read',
    response: 'SubscriberCounts',
    summary: 'How many addresses subscribe to the page: {confirmed, unconfirmed}; never the addresses.',
    async handler({ deps, auth, params }) {
      const page = await statusPageOf(deps, auth, params.slug);
      return countSubscribers(deps.db.kysely, page.uid);
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/status-pages/:slug/subscribers/export',
    permission: 'status-pages:write',
    writes: { mediaType: 'application/json', body: 'SubscriberList', description: 'The subscribers as JSON, or as CSV (text/csv) with ?format=csv.' },
    summary: 'Export the subscribers (addresses: personal data): ?format=json (default) or csv; ?confirmed=true leaves out unconfirmed ones.',
    async handler({ deps, auth, params, query, ctx }) {
      const issues = unknownQueryParameters(query, ['format', 'confirmed']);
      const format = query.get('format') ?? 'json';
      if (format !== 'json' && format !== 'csv') issues.push({ path: 'format', message: 'one of json, csv' });
      const confirmed = query.get('confirmed');
      if (confirmed !== null && confirmed !== 'true' && confirmed !== 'false') issues.push({ path: 'confirmed', message: 'true or false' });
      if (issues.length) throw validationFailed(issues);
      const page = await statusPageOf(deps, auth, params.slug);
      const items = await listSubscribers(deps.db.kysely, page.uid, confirmed === 'true');
      ctx.set('Content-Disposition', `attachment; filename="${params.slug}-subscribers.${format}"`);
      if (format === 'csv') {
        ctx.type = 'text/csv; charset=utf-8';
        ctx.body = subscribersCsv(items);
      } else {
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = JSON.stringify({ items });
      }
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/status-pages/:slug/subscribers/:subscriber',
    permission: 'status-pages:write',
    summary: 'Remove a subscriber, named by its uid or its address; its queued mail goes with it.',
    async handler({ deps, auth, params }) {
      const page = await statusPageOf(deps, auth, params.slug);
      if (!(await removeSubscriber(deps.db.kysely, page.uid, params.subscriber))) throw notFound('No such subscriber on this status page.');
    },
  }),
];
