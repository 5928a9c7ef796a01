import type { Context, Middleware } from 'koa';
import { emailField } from '../../auth/schemas.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { readRawBody } from '../../http/body.js';
import { MAIL_OFF, requestSubscription, SUBSCRIPTION_REQUESTED } from '../subscribers/request-subscription.js';
import { confirmSubscription, findConfirmation, findUnsubscription, unsubscribe } from '../subscribers/subscriptions.js';
import { publicPageLinks } from './public-links.js';
import { limitPublicClient } from './public-rate-limit.js';
import { type Notice, renderNoticePage } from './render-notice-page.js';
import { STATUS_PAGE_CSP } from './status-page-style.js';

/** `/status/{org}/{page}/subscribe`, `.../confirm/{token}` and `.../unsubscribe/{token}`. */
const PATH = /^\/status\/([^/]+)\/([^/]+)\/(subscribe|confirm\/([A-Za-z0-9_-]{1,100})|unsubscribe\/([A-Za-z0-9_-]{1,100}))\/?$/;

const decoded = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

const DEAD_LINK = 'This link does not work: it may have expired, been used already, or the subscription has ended.';

function answer(ctx: Context, status: number, notice: Notice): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = renderNoticePage(notice);
}

/**
 * The subscription pages of public status pages, outside the API: the page's form posts an
 * address to `subscribe`; a confirmation link (GET) shows a button that confirms (POST); an
 * unsubscribe link (GET) shows a button, and a POST to it (the button, or a mail client's
 * RFC 8058 one-click request) unsubscribes at once. Tokens travel in the path only; the
 * daemon sends no Referer (Referrer-Policy: no-referrer) and logs no address.
 */
export function subscriptionSite(deps: AppDeps): Middleware {
  return async (ctx, next) => {
    const match = PATH.exec(ctx.path);
    if (!match || !['GET', 'HEAD', 'POST'].includes(ctx.method)) return next();
    const [orgSlug, pageSlug] = [decoded(match[1]), decoded(match[2])];
    if (!orgSlug || !pageSlug) return next();
    await limitPublicClient(deps, ctx.ip);
    ctx.set('Content-Security-Policy', STATUS_PAGE_CSP);
    ctx.set('X-Frame-Options', 'DENY');
    const page = { orgSlug, pageSlug };
    const pageLink = publicPageLinks(deps.config.baseUrl, orgSlug, pageSlug).page;
    const post = ctx.method === 'POST';
    // Forms post to this path on the same origin (the page's CSP allows form-action 'self').
    const now = deps.clock.now();

    if (match[3] === 'subscribe') {
      if (!post) return next();
      const form = new URLSearchParams((await readRawBody(ctx, 4096)).toString('utf8'));
      const email = emailField.safeParse(form.get('email') ?? '');
      if (!email.success) return answer(ctx, 400, { heading: 'Not an e-mail address', text: 'Go back and enter an e-mail address.', pageLink });
      let requested: boolean;
      try {
        requested = await requestSubscription(deps, ctx.ip, page, email.data);
      } catch (error) {
        if (error instanceof AppError && error.details?.reason === MAIL_OFF)
          return answer(ctx, 503, { heading: 'No subscriptions here', text: error.message, pageLink });
        throw error;
      }
      if (!requested) return answer(ctx, 404, { heading: 'Status page not found', text: 'There is no public status page at this address.' });
      return answer(ctx, 200, { heading: 'Check your mail', text: SUBSCRIPTION_REQUESTED, pageLink });
    }

    const db = deps.db.kysely;
    if (match[4] !== undefined) {
      const token = match[4];
      if (post) {
        if (!(await confirmSubscription(db, page, token, now))) return answer(ctx, 404, { heading: 'Link not valid', text: DEAD_LINK, pageLink });
        return answer(ctx, 200, { heading: 'Subscribed', text: 'You will receive the updates of this status page by e-mail.', pageLink });
      }
      const found = await findConfirmation(db, page, token, now);
      if (!found) return answer(ctx, 404, { heading: 'Link not valid', text: DEAD_LINK, pageLink });
      return answer(ctx, 200, {
        heading: `Subscribe to ${found.pageTitle}`,
        text: 'Confirm that this address should receive the updates of this status page by e-mail.',
        form: { action: ctx.path, button: 'Confirm subscription' },
        pageLink,
      });
    }

    const token = match[5];
    if (post) {
      // RFC 8058: the POST of the one-click header (or the button) unsubscribes at once; its body does not matter.
      if (!(await unsubscribe(db, page, token))) return answer(ctx, 404, { heading: 'Link not valid', text: DEAD_LINK, pageLink });
      return answer(ctx, 200, { heading: 'Unsubscribed', text: 'This address receives no more mail from this status page.', pageLink });
    }
    const found = await findUnsubscription(db, page, token);
    if (!found) return answer(ctx, 404, { heading: 'Link not valid', text: DEAD_LINK, pageLink });
    return answer(ctx, 200, {
      heading: `Unsubscribe from ${found.pageTitle}`,
      text: 'Stop receiving the updates of this status page by e-mail?',
      form: { action: ctx.path, button: 'Unsubscribe' },
      pageLink,
    });
  };
}
