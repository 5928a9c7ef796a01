import { z } from 'zod';
import { DeliveryError } from '../delivery-error.js';
import { bodyLines, defineChannelType, httpUrl, joinUrl, safeJson, token } from './channel-type.js';

/** Slack: an incoming webhook, or `chat.postMessage` with a bot token (which answers 200 with `ok: false` on errors). */
export const slackChannel = defineChannelType({
  type: 'slack',
  title: 'Slack',
  description: 'An incoming webhook URL, or a bot token (chat:write) with the channel it posts to.',
  schema: z
    .strictObject({ webhookUrl: httpUrl(['https']).optional(), botToken: token.optional(), channel: z.string().min(1).max(80).optional() })
    .superRefine((config, ctx) => {
      if (config.webhookUrl === undefined && config.botToken === undefined) {
        ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: 'set webhookUrl, or botToken with channel' });
      }
      if (config.botToken !== undefined && config.channel === undefined) {
        ctx.addIssue({ code: 'custom', path: ['channel'], message: 'required with botToken' });
      }
    }),
  secrets: ['webhookUrl', 'botToken'],
  destination: ['webhookUrl', 'channel'],
  sample: { webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX' },
  deliver: async ({ message, config }, { http, apiUrls }) => {
    const text = `*${message.title}*\n${bodyLines(message)}`;
    if (config.webhookUrl !== undefined) {
      const response = await http.send(config.webhookUrl, { json: { text } });
      return { responseCode: response.status };
    }
    const response = await http.send(joinUrl(apiUrls.slack, 'chat.postMessage'), {
      headers: { authorization: `Bearer ${config.botToken}` },
      json: { channel: config.channel, text, unfurl_links: false },
    });
    const answer = safeJson(response.body);
    if (answer?.ok !== true) throw new DeliveryError(`Slack refused the message: ${String(answer?.error ?? 'no answer')}`.slice(0, 200), response.status, true);
    return { responseCode: response.status };
  },
});
