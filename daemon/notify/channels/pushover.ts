import { z } from 'zod';
import { defineChannelType, joinUrl } from './channel-type.js';

const key = z.string().regex(/^\w{30}$/, '30 letters and digits');

/** Pushover: the message API with the application's token and the user (or group) key. */
export const pushoverChannel = defineChannelType({
  type: 'pushover',
  title: 'Pushover',
  description: "An application's token and the user (or group) key it sends to.",
  schema: z.strictObject({ userKey: key, appToken: key }),
  secrets: ['userKey', 'appToken'],
  destination: ['userKey'],
  sample: { userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', appToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi' },
  deliver: async ({ message, config }, { http, apiUrls }) => {
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
  },
});
