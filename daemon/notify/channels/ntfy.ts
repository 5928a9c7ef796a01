import { z } from 'zod';
import { defineChannelType, httpUrl, token } from './channel-type.js';

const PRIORITY = { critical: 5, info: 3, ok: 3 } as const;

/** ntfy: JSON publishing to the server's root, naming the topic. */
export const ntfyChannel = defineChannelType({
  type: 'ntfy',
  title: 'ntfy',
  description: 'A topic on the configured ntfy server (SVC_NOTIFY_NTFY_URL) or on serverUrl; the topic is a secret, as anyone who knows it can read it.',
  schema: z.strictObject({
    topic: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\w-]+$/, 'letters, digits, - and _'),
    serverUrl: httpUrl(['http', 'https']).optional(),
    accessToken: token.optional(),
  }),
  secrets: ['topic', 'accessToken'],
  destination: ['serverUrl', 'topic'],
  sample: { topic: 'svc-alerts-replace-me' },
  deliver: async ({ message, config }, { http, apiUrls }) => {
    const server = config.serverUrl ?? apiUrls.ntfy;
    const headers: Record<string, string> = config.accessToken !== undefined ? { authorization: `Bearer ${config.accessToken}` } : {};
    const response = await http.send(`${server.replace(/\/+$/, '')}/`, {
      headers,
      json: {
        topic: config.topic,
        title: message.title,
        message: message.text.split('\n').slice(1, -1).join('\n'),
        priority: PRIORITY[message.severity],
        tags: [message.severity === 'ok' ? 'white_check_mark' : message.severity === 'critical' ? 'rotating_light' : 'information_source'],
        click: message.link,
      },
    });
    return { responseCode: response.status };
  },
});
