import { z } from 'zod';
import { DeliveryError } from '../delivery-error.js';
import { defineChannelType, joinUrl, safeJson, token } from './channel-type.js';

/** Telegram: the Bot API's `sendMessage` to the channel's chat. */
export const telegramChannel = defineChannelType({
  type: 'telegram',
  title: 'Telegram',
  description: "A bot's token and the chat it posts to (a numeric chat id or @channelname).",
  schema: z.strictObject({
    botToken: token,
    chatId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^(-?\d+|@\w{4,})$/, 'a numeric chat id or @channelname'),
  }),
  secrets: ['botToken'],
  destination: ['chatId'],
  sample: { botToken: '123456:replace-with-the-bot-token', chatId: '@alerts_channel' },
  deliver: async ({ message, config }, { http, apiUrls }) => {
    const response = await http.send(joinUrl(apiUrls.telegram, `bot${config.botToken}/sendMessage`), {
      json: { chat_id: config.chatId, text: message.text, disable_web_page_preview: true },
    });
    if (safeJson(response.body)?.ok !== true) throw new DeliveryError('Telegram did not accept the message', response.status, true);
    return { responseCode: response.status };
  },
});
