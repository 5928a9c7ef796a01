import { z } from 'zod';
import { defineChannelType, httpUrl } from './channel-type.js';

/** Microsoft Teams: a Workflows webhook, which takes a message with one Adaptive Card attachment. */
export const teamsChannel = defineChannelType({
  type: 'teams',
  title: 'Microsoft Teams',
  description: 'A Workflows (Power Automate) "post to a channel when a webhook request is received" URL.',
  schema: z.strictObject({ webhookUrl: httpUrl(['https']) }),
  secrets: ['webhookUrl'],
  destination: ['webhookUrl'],
  sample: { webhookUrl: 'https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke' },
  deliver: async ({ message, config }, { http }) => {
    const card = {
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body: [
        {
          type: 'TextBlock',
          text: message.title,
          weight: 'Bolder',
          size: 'Medium',
          wrap: true,
          color: message.severity === 'critical' ? 'Attention' : message.severity === 'ok' ? 'Good' : 'Default',
        },
        ...message.text
          .split('\n')
          .slice(1, -1)
          .map((line) => ({ type: 'TextBlock', text: line, wrap: true, spacing: 'None' })),
      ],
      actions: [{ type: 'Action.OpenUrl', title: 'Open in svc', url: message.link }],
    };
    const response = await http.send(config.webhookUrl, {
      json: { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] },
    });
    return { responseCode: response.status };
  },
});
