import { z } from 'zod';
import { defineChannelType, incidentKey, joinUrl, token } from './channel-type.js';

/**
 * Opsgenie Alert API: opened creates an alert whose alias is the incident's key, acknowledged
 * and resolved acknowledge and close that alias.
 */
export const opsgenieChannel = defineChannelType({
  type: 'opsgenie',
  title: 'Opsgenie',
  description: 'An Opsgenie API integration key; one incident is one alert (acknowledged and closed with it).',
  schema: z.strictObject({ apiKey: token, priority: z.enum(['P1', 'P2', 'P3', 'P4', 'P5']).default('P3') }),
  secrets: ['apiKey'],
  destination: ['apiKey'],
  sample: { apiKey: 'replace-with-the-integration-key', priority: 'P3' },
  deliver: async ({ facts, message, config }, { http, apiUrls }) => {
    const alias = incidentKey(facts);
    const headers = { authorization: `GenieKey ${config.apiKey}` };
    const base = joinUrl(apiUrls.opsgenie, 'v2/alerts');
    if (facts.event === 'incident.acknowledged' || facts.event === 'incident.resolved') {
      const verb = facts.event === 'incident.acknowledged' ? 'acknowledge' : 'close';
      const response = await http.send(`${base}/${encodeURIComponent(alias)}/${verb}?identifierType=alias`, {
        headers,
        json: { source: 'svc', note: message.title },
      });
      return { responseCode: response.status };
    }
    const response = await http.send(base, {
      headers,
      json: {
        message: message.title.slice(0, 130),
        alias,
        description: message.text.slice(0, 15000),
        priority: config.priority,
        source: 'svc',
        details: { link: message.link },
      },
    });
    return { responseCode: response.status };
  },
});
