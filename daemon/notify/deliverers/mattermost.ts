import type { Deliverer } from './deliverer.js';

/** Mattermost: an incoming webhook (Markdown text), optionally to another channel than its own. */
export const deliverMattermost: Deliverer = async ({ message, config }, { http }) => {
  const text = `#### ${message.title}\n${message.text.split('\n').slice(1).join('\n')}`;
  const response = await http.send(config.webhookUrl as string, { json: { text, username: 'svc', ...(config.channel ? { channel: config.channel } : {}) } });
  return { responseCode: response.status };
};
