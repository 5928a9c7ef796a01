import { z } from 'zod';
import { bodyLines, defineChannelType, httpUrl } from './channel-type.js';

/** Google Chat: a space's incoming webhook, plain text. */
export const googleChatChannel = defineChannelType({
  type: 'googlechat',
  title: 'Google Chat',
  description: "A Google Chat space's incoming webhook.",
  schema: z.strictObject({ webhookUrl: httpUrl(['https']) }),
  secrets: ['webhookUrl'],
  destination: ['webhookUrl'],
  sample: { webhookUrl: 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=KEY&token=TOKEN' },
  deliver: async ({ message, config }, { http }) => {
    const response = await http.send(config.webhookUrl, { json: { text: `*${message.title}*\n${bodyLines(message)}` } });
    return { responseCode: response.status };
  },
});
