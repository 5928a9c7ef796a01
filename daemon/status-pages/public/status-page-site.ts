import type { Middleware } from 'koa';
import type { AppDeps } from '../../deps.js';
import { sendCacheable, sendRendered } from './cacheable.js';
import { renderIncidentFeed } from './incident-feed.js';
import { publicPageLinks } from './public-links.js';
import { limitPublicClient } from './public-rate-limit.js';
import { takesSubscriptions } from '../subscribers/request-subscription.js';
import { loadPublicStatus } from './public-status.js';
import { renderNotFoundPage, renderStatusPage, type StatusPageLinks } from './render-status-page.js';
import { statusPageFingerprint } from './status-page-fingerprint.js';
import { STATUS_PAGE_CSP } from './status-page-style.js';

/** `/status/{org}/{page}` and `/status/{org}/{page}/feed.atom`; slugs never contain a slash. */
const PATH = /^\/status\/([^/]+)\/([^/]+?)(\/feed\.atom)?\/?$/;

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The public status pages, outside the API and before the dashboard: server-rendered HTML (no
 * script, one inline style sheet allowed by hash) and each page's Atom feed of incidents. A page
 * that is not public and one that does not exist get the same 404, so neither is revealed.
 */
export function statusPageSite(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const match = PATH.exec(ctx.path);
    if (!match || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    await limitPublicClient(deps, ctx.ip);
    ctx.set('Content-Security-Policy', STATUS_PAGE_CSP);
    ctx.set('X-Frame-Options', 'DENY');
    const [orgSlug, pageSlug] = [decoded(match[1]), decoded(match[2])];
    const status = orgSlug && pageSlug ? await loadPublicStatus(deps, { orgSlug, pageSlug }) : undefined;
    if (!status) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = renderNotFoundPage();
      return;
    }
    const links = publicPageLinks(deps.config.baseUrl, orgSlug!, pageSlug!);
    if (match[3]) {
      await sendCacheable(ctx, deps.caches.gzipped, 'application/atom+xml; charset=utf-8', renderIncidentFeed(status, links));
      return;
    }
    const pageLinks: StatusPageLinks = {
      feed: links.feed,
      subscribe: takesSubscriptions(deps.config) ? `${new URL(links.page).pathname}/subscribe` : undefined,
    };
    await sendRendered(ctx, deps.caches.gzipped, 'text/html; charset=utf-8', statusPageFingerprint(status, pageLinks), () =>
      renderStatusPage(status, pageLinks),
    );
  };
}
