import { DeliveryError } from '../delivery-error.js';
import { joinUrl, type Deliverer } from './deliverer.js';
import { safeJson } from './slack.js';

/** Telegram: the Bot API's `sendMessage` to the channel's chat. */
export const deliverTelegram: Deliverer = async ({ message, config }, { http, apiUrls }) => {
  const response = await http.send(joinUrl(apiUrls.telegram, `bot${config.botToken as string}/sendMessage`), {
    json: { chat_id: config.chatId, text: message.text, disable_web_page_preview: true },
  });
  if (safeJson(response.body)?.ok !== true) throw new DeliveryError('Telegram did not accept the message', response.status, true);
  return { responseCode: response.status };
};
