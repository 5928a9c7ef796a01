import { newId } from '../db/ids.js';
import { notFound } from '../errors.js';
import { parsePage } from '../http/pagination.js';
import { getStoredChannel } from '../notifications/channel-store.js';
import { listDeliveries } from '../notify/outbox.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';

const channelNotFound = (uid: string) => notFound(`No notification channel "${uid}" in this organization.`);

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
    summary: 'Send a test message to the channel now and answer the result {ok, responseCode, error}.',
    async handler({ deps, auth, params }) {
      const org = orgOf(auth);
      const channel = await getStoredChannel(deps.db.kysely, deps.keyring, org.uid, params.uid);
      if (!channel) throw channelNotFound(params.uid);
      const now = deps.clock.now();
      const result = await deps.notifier.deliver({
        uid: newId(now.getTime()),
        type: channel.type,
        config: channel.config,
        facts: { event: 'test', organization: { uid: org.uid, slug: org.slug, name: org.name }, incident: null, check: null, occurredAt: now.toISOString(), lastResultMessage: null },
        now,
      });
      return result.ok ? { ok: true, responseCode: result.responseCode, error: null } : { ok: false, responseCode: result.error.responseCode, error: result.error.message };
    },
  }),
];
