import type { Deliverer } from './deliverer.js';

/** Google Chat: a space's incoming webhook, plain text. */
export const deliverGoogleChat: Deliverer = async ({ message, config }, { http }) => {
  const response = await http.send(config.webhookUrl as string, { json: { text: `*${message.title}*\n${message.text.split('\n').slice(1).join('\n')}` } });
  return { responseCode: response.status };
};
