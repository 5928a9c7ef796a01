import type { Deliverer } from './deliverer.js';

/** Microsoft Teams: a Workflows webhook, which takes a message with one Adaptive Card attachment. */
export const deliverTeams: Deliverer = async ({ message, config }, { http }) => {
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
  const response = await http.send(config.webhookUrl as string, {
    json: { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] },
  });
  return { responseCode: response.status };
};
