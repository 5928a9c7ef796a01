import { sha256 } from '../../crypto/tokens.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { RateLimiter } from '../../limits/rate-limit.js';
import { publicPageLinks } from '../public/public-links.js';
import type { SubscriberMessage } from './subscriber-outbox.js';
import { subscribe } from './subscriptions.js';

const HOUR = 3600;
/** Subscription requests a client may make in an hour (to any page). */
export const SUBSCRIBE_PER_CLIENT_HOURLY = 10;
/** Requests an hour for one address on one page: a confirmation mail is not resent more often. */
export const SUBSCRIBE_PER_ADDRESS_HOURLY = 3;

/** What every subscription request is told, subscribed before or not. */
export const SUBSCRIPTION_REQUESTED = 'If the address can receive mail, a message to confirm the subscription is on its way.';

/** Why a server without mail takes no subscriptions. */
export const SUBSCRIPTIONS_OFF = 'This server sends no e-mail (no SMTP server is configured), so its status pages take no subscriptions.';

/** Whether status pages take subscriptions: only where mail can go out (SVC_SMTP_URL). */
export const takesSubscriptions = (config: Pick<AppDeps['config'], 'mail'>): boolean => Boolean(config.mail.smtpUrl);

function confirmationMessage(pageTitle: string, pageLink: string): SubscriberMessage {
  return {
    subject: `Confirm your subscription to ${pageTitle}`,
    text: `Someone, hopefully you, asked to receive the updates of the status page "${pageTitle}" by e-mail:\n${pageLink}`,
  };
}

/** The `details.reason` of the 503 a subscription request gets when the server sends no mail. */
export const MAIL_OFF = 'MAIL_OFF';

/**
 * A subscription request to a public page: rate-limited per client and per address (keyed by
 * the address's hash, so the address is stored nowhere but in the subscription), then the
 * address is subscribed and asked to confirm. False when the page does not exist or is not public;
 * 503 UNAVAILABLE (`details.reason: MAIL_OFF`) when the server sends no mail, since the
 * confirmation could never arrive. The address never reaches the log.
 */
export async function requestSubscription(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  clientAddress: string,
  page: { orgSlug: string; pageSlug: string },
  email: string,
): Promise<boolean> {
  const limiter = (max: number) => new RateLimiter(deps, max, HOUR);
  await limiter(SUBSCRIBE_PER_CLIENT_HOURLY).reserve(`subscribe:ip:${clientAddress}`);
  const found = await deps.db.kysely
    .selectFrom('status_pages as p')
    .innerJoin('organizations as o', 'o.uid', 'p.organization_uid')
    .select(['p.uid', 'p.title'])
    .where('o.slug', '=', page.orgSlug)
    .where('p.slug', '=', page.pageSlug)
    .where('p.public', '=', 1)
    .executeTakeFirst();
  if (!found) return false;
  if (!takesSubscriptions(deps.config)) throw new AppError('UNAVAILABLE', SUBSCRIPTIONS_OFF, { reason: MAIL_OFF });
  await limiter(SUBSCRIBE_PER_ADDRESS_HOURLY).reserve(`subscribe:address:${sha256(`${found.uid}:${email.toLowerCase()}`)}`);
  const link = publicPageLinks(deps.config.baseUrl, page.orgSlug, page.pageSlug).page;
  await subscribe(deps.db.kysely, found.uid, email, confirmationMessage(found.title, link), deps.clock.now());
  return true;
}
