import type { Deliverer } from './deliverer.js';

/** Discord: a channel webhook; content is capped at Discord's 2,000 characters. */
export const deliverDiscord: Deliverer = async ({ message, config }, { http }) => {
  const response = await http.send(config.webhookUrl as string, {
    json: { content: `**${message.title}**\n${message.text.split('\n').slice(1).join('\n')}`.slice(0, 2000), allowed_mentions: { parse: [] } },
  });
  return { responseCode: response.status };
};
