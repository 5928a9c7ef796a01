import { RateLimiter } from '../limits/rate-limit.js';
import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import { notFound, validationFailed } from '../errors.js';
import { parsePage } from '../http/pagination.js';
import { getStoredChannel } from '../notifications/channel-store.js';
import { listDeliveries } from '../notify/outbox.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';

const channelNotFound = (uid: string) => notFound(`No notification channel "${uid}" in this organization.`);

const TEST_WINDOW_SECONDS = 3600;
const testLimiterOf = (deps: AppDeps): RateLimiter =>
  (deps.caches.channelTestLimiter ??= new RateLimiter(deps, deps.config.notify.testRateLimit, TEST_WINDOW_SECONDS));

/**
 * The addresses of an e-mail channel that belong to members of the organization: a test goes
 * only to them, so a test cannot mail anyone outside it. 400 when none does.
 */
async function memberAddresses(deps: AppDeps, organizationUid: string, addresses: string[]): Promise<string[]> {
  const wanted = addresses.map((address) => address.toLowerCase());
  const rows = await deps.db.kysely
    .selectFrom('members')
    .innerJoin('users', 'users.uid', 'members.user_uid')
    .select('users.email')
    .where('members.organization_uid', '=', organizationUid)
    .where('users.email', 'in', wanted)
    .execute();
  const members = new Set(rows.map((row) => row.email.toLowerCase()));
  const allowed = wanted.filter((address) => members.has(address));
  if (allowed.length === 0) {
    throw validationFailed(
      [{ path: 'config.addresses', message: "a test message goes only to members' addresses, and none of the channel's addresses belongs to a member" }],
      'The channel cannot be tested.',
    );
  }
  return allowed;
}

/** A channel's delivery log and its test message. */
export const channelDeliveryRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/notification-channels/:uid/deliveries',
    permission: 'notification-channels:read',
    response: 'ChannelDeliveryPage',
    summary: 'The delivery log of a channel, newest first: event, status (pending, sent, failed), attempts, response code, error; ?limit=, ?cursor=.',
    async handler({ deps, auth, params, query }) {
      const org = orgOf(auth);
      if (!(await getStoredChannel(deps.db.kysely, deps.keyring, org.uid, params.uid))) throw channelNotFound(params.uid);
      return listDeliveries(deps.db, org.uid, params.uid, parsePage(query));
    },
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/notification-channels/:uid/test',
    permission: 'notification-channels:write',
    response: 'ChannelTestResult',
    summary:
      "Send a test message to the channel now and answer the result {ok, responseCode, error}; SVC_NOTIFY_TEST_RATE_LIMIT an hour per organization (then 429), an e-mail channel's only to members' addresses.",
    async handler({ deps, auth, params }) {
      const org = orgOf(auth);
      const channel = await getStoredChannel(deps.db.kysely, deps.keyring, org.uid, params.uid);
      if (!channel) throw channelNotFound(params.uid);
      const config =
        channel.type === 'email'
          ? { ...channel.config, addresses: await memberAddresses(deps, org.uid, channel.config.addresses as string[]) }
          : channel.config;
      await testLimiterOf(deps).reserve(`channel-test:org:${org.uid}`);
      const now = deps.clock.now();
      const result = await deps.notifier.deliver({
        uid: newId(now.getTime()),
        type: channel.type,
        config,
        facts: {
          event: 'test',
          organization: { uid: org.uid, slug: org.slug, name: org.name },
          incident: null,
          check: null,
          occurredAt: now.toISOString(),
          lastResultMessage: null,
        },
        now,
      });
      return result.ok
        ? { ok: true, responseCode: result.responseCode, error: null }
        : { ok: false, responseCode: result.error.responseCode, error: result.error.message };
    },
  }),
];
