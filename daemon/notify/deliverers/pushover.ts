import { joinUrl, type Deliverer } from './deliverer.js';

/** Pushover: the message API with the application's token and the user (or group) key. */
export const deliverPushover: Deliverer = async ({ message, config }, { http, apiUrls }) => {
  const response = await http.send(joinUrl(apiUrls.pushover, '1/messages.json'), {
    json: {
      token: config.appToken,
      user: config.userKey,
      title: message.title.slice(0, 250),
      message: message.text.split('\n').slice(1, -1).join('\n').slice(0, 1024) || message.title,
      url: message.link,
      url_title: 'Open in svc',
      priority: message.severity === 'critical' ? 1 : 0,
    },
  });
  return { responseCode: response.status };
};
