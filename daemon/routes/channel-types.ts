import { z } from 'zod';
import type { ChannelTypeInfo } from '../../contract/notification-channels.js';
import { route, type RouteSpec } from '../http/route.js';
import type { ChannelTypeDefinition } from '../notify/channels/channel-type.js';
import { CHANNEL_TYPE_DEFINITIONS } from '../notify/channels/index.js';

/** One channel type as the API shows it: derived from its one definition. */
function channelTypeInfo(definition: ChannelTypeDefinition): ChannelTypeInfo {
  return {
    type: definition.type,
    title: definition.title,
    description: definition.description,
    configSchema: z.toJSONSchema(definition.schema, { io: 'input', unrepresentable: 'any' }),
    secrets: [...definition.secrets],
    destination: [...definition.destination],
    sample: definition.sample,
  };
}

/** The notification channel types: the same definitions the daemon validates and delivers with. */
export const channelTypeRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/channel-types',
    permission: 'authenticated',
    response: 'ChannelTypeList',
    summary:
      'Every notification channel type: type, title, description, the JSON Schema of its config, which fields are secrets and which say where it sends, and a sample config.',
    handler: async () => Object.values(CHANNEL_TYPE_DEFINITIONS).map(channelTypeInfo),
  }),
];
