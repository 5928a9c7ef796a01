import { z } from 'zod';
import { notFound, validationFailed } from '../errors.js';
import { parsePage } from '../http/pagination.js';
import { toIssues } from '../http/validate.js';
import { createChannel, deleteChannel, getChannel, getStoredChannel, listChannels, updateChannel } from '../notifications/channel-store.js';
import { CHANNEL_TYPES, type ChannelType } from '../../contract/notification-channels.js';
import { mergeConfig, secretsLeftBehind, type ChannelConfig } from '../notifications/channel-settings.js';
import { CHANNEL_TYPE_DEFINITIONS } from '../notify/channels/index.js';
import { orgOf } from './checks.js';
import { route, type RouteSpec } from '../http/route.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '../plain-text.js';

const name = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((text) => !hasControlCharacter(text), CONTROL_CHARACTER_MESSAGE);
const type = z.enum(CHANNEL_TYPES);
const config = z.record(z.string(), z.unknown());

/** Validates a type's config; issues are reported under `config.` and never repeat a value. */
function validConfig(channelType: ChannelType, value: unknown): ChannelConfig {
  const result = CHANNEL_TYPE_DEFINITIONS[channelType].schema.safeParse(value);
  if (!result.success) {
    throw validationFailed(
      toIssues(result.error).map((issue) => ({ path: issue.path ? `config.${issue.path}` : 'config', message: issue.message })),
      'The channel is not valid.',
    );
  }
  return result.data;
}

const channelNotFound = (uid: string) => notFound(`No notification channel "${uid}" in this organization.`);

/** Notification channels (e-mail, webhook, team chat): their secrets are only ever answered masked. */
export const notificationChannelRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/notification-channels',
    permission: 'notification-channels:read',
    response: 'NotificationChannelPage',
    summary: 'List notification channels in creation order, secrets masked: ?limit= (1-200, default 50), ?cursor=.',
    handler: async ({ deps, auth, query }) => listChannels(deps.db.kysely, deps.keyring, orgOf(auth).uid, parsePage(query)),
  }),
  route({
    method: 'POST',
    path: '/orgs/:org/notification-channels',
    permission: 'notification-channels:write',
    response: 'NotificationChannel',
    summary: 'Create a channel {name, type, config, default?}; the answer already masks its secrets. A default channel applies to checks that choose none.',
    body: z.strictObject({ name, type, config, default: z.boolean().optional() }),
    status: 201,
    handler: async ({ deps, auth, body }) =>
      createChannel(
        deps.db.kysely,
        deps.keyring,
        orgOf(auth).uid,
        { name: body.name, type: body.type, config: validConfig(body.type, body.config), default: body.default },
        deps.clock.now(),
      ),
  }),
  route({
    method: 'GET',
    path: '/orgs/:org/notification-channels/:uid',
    permission: 'notification-channels:read',
    response: 'NotificationChannel',
    summary: 'One channel, secrets masked.',
    async handler({ deps, auth, params }) {
      const channel = await getChannel(deps.db.kysely, deps.keyring, orgOf(auth).uid, params.uid);
      if (!channel) throw channelNotFound(params.uid);
      return channel;
    },
  }),
  route({
    method: 'PATCH',
    path: '/orgs/:org/notification-channels/:uid',
    permission: 'notification-channels:write',
    response: 'NotificationChannel',
    summary: 'Change a channel: config fields merge (null removes one; a secret sent back masked is kept); a new type needs its whole config.',
    body: z
      .strictObject({ name, type, config, default: z.boolean() })
      .partial()
      .refine((changes) => Object.keys(changes).length > 0, 'send at least one field to change'),
    async handler({ deps, auth, params, body }) {
      const org = orgOf(auth);
      const stored = await getStoredChannel(deps.db.kysely, deps.keyring, org.uid, params.uid);
      if (!stored) throw channelNotFound(params.uid);
      const nextType = body.type ?? stored.type;
      let nextConfig = stored.config;
      if (nextType !== stored.type) {
        if (!body.config)
          throw validationFailed([{ path: 'config', message: `required when the type changes (the ${stored.type} settings mean nothing to ${nextType})` }]);
        nextConfig = validConfig(nextType, body.config);
      } else if (body.config) {
        const leftBehind = secretsLeftBehind(nextType, stored.config, body.config);
        if (leftBehind.length > 0) throw validationFailed(leftBehind, 'The channel is not valid: a new destination needs its secrets again.');
        nextConfig = validConfig(nextType, mergeConfig(nextType, stored.config, body.config));
      }
      const channel = await updateChannel(
        deps.db.kysely,
        deps.keyring,
        org.uid,
        stored.uid,
        { name: body.name ?? stored.name, type: nextType, config: nextConfig, default: body.default },
        deps.clock.now(),
      );
      if (!channel) throw channelNotFound(params.uid);
      return channel;
    },
  }),
  route({
    method: 'DELETE',
    path: '/orgs/:org/notification-channels/:uid',
    permission: 'notification-channels:write',
    summary: 'Delete a channel.',
    async handler({ deps, auth, params }) {
      if (!(await deleteChannel(deps.db.kysely, orgOf(auth).uid, params.uid))) throw channelNotFound(params.uid);
    },
  }),
];
