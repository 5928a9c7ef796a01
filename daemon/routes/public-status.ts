import type { Context } from 'koa';
import type { AppDeps } from '../deps.js';
import { notFound, validationFailed } from '../errors.js';
import { uptimeOf, UPTIME_WINDOWS, type UptimeWindow } from '../runner/result-queries.js';
import { stateBadge, uptimeBadge } from '../status-pages/public/badge.js';
import { loadBadgeCheck } from '../status-pages/public/badge-check.js';
import { sendCacheable } from '../status-pages/public/cacheable.js';
import { limitPublicClient } from '../status-pages/public/public-rate-limit.js';
import { loadPublicStatus, type PublicStatus } from '../status-pages/public/public-status.js';
import type { PublicStatus as PublicStatusAnswer } from '../../contract/status-pages.js';
import { route, type RouteSpec } from '../http/route.js';
import { z } from 'zod';
import { emailField } from '../auth/schemas.js';
import { requestSubscription, SUBSCRIPTION_REQUESTED } from '../status-pages/subscribers/request-subscription.js';
import { pageNotFound } from './status-pages.js';

const SVG = 'image/svg+xml; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

// One answer for a page that is private and one that does not exist, and one for every badge
// refused: nothing tells a private check or organization from a missing one.
const noPublicPage = () => notFound('No public status page here.');
const noBadge = () => notFound('No public badge here.');

/** The page's data without its internal change time: the contract's PublicStatus. */
function publicJson(status: PublicStatus): string {
  const { updatedAt: _updatedAt, ...rest } = status;
  const shown: PublicStatusAnswer = rest;
  return JSON.stringify(shown);
}

async function sendBadgeOf(
  deps: AppDeps,
  ctx: Context,
  orgSlug: string,
  checkSlug: string,
  render: (check: NonNullable<Awaited<ReturnType<typeof loadBadgeCheck>>>) => Promise<string>,
): Promise<void> {
  await limitPublicClient(deps, ctx.ip);
  const check = await loadBadgeCheck(deps.db.kysely, orgSlug, checkSlug);
  if (!check) throw noBadge();
  await sendCacheable(ctx, deps.caches.gzipped, SVG, await render(check));
}

/** Public status pages as JSON, and badges of the checks they list: no sign-in, rate-limited per client, cacheable. */
export const publicStatusRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/public/status/:org/:page',
    permission: 'public',
    writes: { mediaType: 'application/json', body: 'PublicStatus', description: 'The public page: ETag, cached 30 s; 304 when the ETag matches.' },
    summary:
      'A public status page as JSON: {title, description, state, checks: [{name, state, updateState, uptime90d, days}], incidents, updates}; 404 when not public. ETag, cached 30 s.',
    async handler({ deps, ctx, params }) {
      await limitPublicClient(deps, ctx.ip);
      const status = await loadPublicStatus(deps, { orgSlug: params.org, pageSlug: params.page });
      if (!status) throw noPublicPage();
      await sendCacheable(ctx, deps.caches.gzipped, JSON_TYPE, publicJson(status));
    },
  }),
  route({
    method: 'POST',
    path: '/public/status/:org/:page/subscriptions',
    permission: 'public',
    response: 'SubscriptionRequested',
    status: 202,
    body: z.strictObject({ email: emailField }),
    summary:
      'Subscribe {email} to the mail of a public page: a confirmation mail goes out; the answer is the same whether or not the address was subscribed. Rate-limited per client and per address. 503 UNAVAILABLE (reason MAIL_OFF) when the server sends no mail.',
    async handler({ deps, ctx, params, body }) {
      await limitPublicClient(deps, ctx.ip);
      if (!(await requestSubscription(deps, ctx.ip, { orgSlug: params.org, pageSlug: params.page }, body.email))) throw noPublicPage();
      return { message: SUBSCRIPTION_REQUESTED };
    },
  }),
  route({
    method: 'GET',
    path: '/public/badges/:org/:check/status.svg',
    permission: 'public',
    writes: { mediaType: 'image/svg+xml', description: 'The badge: ETag, cached 30 s.' },
    summary: "SVG badge of a check's current state; only for checks on a public page of the organization (any other: 404).",
    handler: async ({ deps, ctx, params }) => sendBadgeOf(deps, ctx, params.org, params.check, async (check) => stateBadge(check.name, check.state)),
  }),
  route({
    method: 'GET',
    path: '/public/badges/:org/:check/uptime.svg',
    permission: 'public',
    writes: { mediaType: 'image/svg+xml', description: 'The badge: ETag, cached 30 s.' },
    summary: "SVG badge of a check's uptime, ?window=24h|7d|30d|90d (default 30d); only for checks on a public page (any other: 404).",
    async handler({ deps, ctx, params, query }) {
      const window = (query.get('window') ?? '30d') as UptimeWindow;
      if (!Object.hasOwn(UPTIME_WINDOWS, window)) throw validationFailed([{ path: 'window', message: `one of ${Object.keys(UPTIME_WINDOWS).join(', ')}` }]);
      await sendBadgeOf(deps, ctx, params.org, params.check, async (check) => {
        const uptime =
          check.series === null ? undefined : (await uptimeOf(deps.db.kysely, [check.series], window, deps.clock.now().getTime())).get(check.series);
        return uptimeBadge(window, uptime?.uptimePercent ?? null);
      });
    },
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/status-pages/:slug/preview',
    permission: 'status-pages:read',
    writes: { mediaType: 'application/json', body: 'PublicStatus', description: 'What the public page would show.' },
    summary: 'What the public page would show, public or not: the same JSON as GET /public/status/{org}/{page}.',
    async handler({ deps, ctx, auth, params }) {
      const status = await loadPublicStatus(deps, { orgSlug: auth.org.slug, pageSlug: params.slug, preview: true });
      if (!status) throw pageNotFound(params.slug);
      ctx.type = JSON_TYPE;
      ctx.body = publicJson(status);
    },
  }),
];
