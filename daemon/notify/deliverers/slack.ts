import { DeliveryError } from '../delivery-error.js';
import { joinUrl, type Deliverer } from './deliverer.js';

/** Slack: an incoming webhook, or `chat.postMessage` with a bot token (which answers 200 with `ok: false` on errors). */
export const deliverSlack: Deliverer = async ({ message, config }, { http, apiUrls }) => {
  const text = `*${message.title}*\n${message.text.split('\n').slice(1).join('\n')}`;
  if (typeof config.webhookUrl === 'string') {
    const response = await http.send(config.webhookUrl, { json: { text } });
    return { responseCode: response.status };
  }
  const response = await http.send(joinUrl(apiUrls.slack, 'chat.postMessage'), {
    headers: { authorization: `Bearer ${config.botToken as string}` },
    json: { channel: config.channel, text, unfurl_links: false },
  });
  const answer = safeJson(response.body);
  if (answer?.ok !== true) throw new DeliveryError(`Slack refused the message: ${String(answer?.error ?? 'no answer')}`.slice(0, 200), response.status, true);
  return { responseCode: response.status };
};

export function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
