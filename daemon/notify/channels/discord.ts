import { z } from 'zod';
import { bodyLines, defineChannelType, httpUrl } from './channel-type.js';

/** Discord: a channel webhook; content is capped at Discord's 2,000 characters. */
export const discordChannel = defineChannelType({
  type: 'discord',
  title: 'Discord',
  description: 'A Discord channel webhook (Server Settings → Integrations → Webhooks).',
  schema: z.strictObject({ webhookUrl: httpUrl(['https']) }),
  secrets: ['webhookUrl'],
  destination: ['webhookUrl'],
  sample: { webhookUrl: 'https://discord.com/api/webhooks/123/abc' },
  deliver: async ({ message, config }, { http }) => {
    const response = await http.send(config.webhookUrl, {
      json: { content: `**${message.title}**\n${bodyLines(message)}`.slice(0, 2000), allowed_mentions: { parse: [] } },
    });
    return { responseCode: response.status };
  },
});
