import { z } from 'zod';
import { bodyLines, defineChannelType, httpUrl } from './channel-type.js';

/** Mattermost: an incoming webhook (Markdown text), optionally to another channel than its own. */
export const mattermostChannel = defineChannelType({
  type: 'mattermost',
  title: 'Mattermost',
  description: 'A Mattermost incoming webhook; self-hosted servers may speak plain HTTP on a private network.',
  schema: z.strictObject({ webhookUrl: httpUrl(['http', 'https']), channel: z.string().min(1).max(64).optional() }),
  secrets: ['webhookUrl'],
  destination: ['webhookUrl', 'channel'],
  sample: { webhookUrl: 'https://mattermost.example.com/hooks/abc' },
  deliver: async ({ message, config }, { http }) => {
    const text = `#### ${message.title}\n${bodyLines(message)}`;
    const response = await http.send(config.webhookUrl, { json: { text, username: 'svc', ...(config.channel ? { channel: config.channel } : {}) } });
    return { responseCode: response.status };
  },
});
