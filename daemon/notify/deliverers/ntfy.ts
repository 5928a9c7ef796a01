import type { Deliverer } from './deliverer.js';

const PRIORITY = { critical: 5, info: 3, ok: 3 } as const;

/** ntfy: JSON publishing to the server's root, naming the topic. */
export const deliverNtfy: Deliverer = async ({ message, config }, { http, apiUrls }) => {
  const server = (config.serverUrl as string | undefined) ?? apiUrls.ntfy;
  const headers: Record<string, string> = typeof config.accessToken === 'string' ? { authorization: `Bearer ${config.accessToken}` } : {};
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
};
