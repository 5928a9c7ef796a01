import { incidentKey, joinUrl, type Deliverer } from './deliverer.js';

/**
 * Opsgenie Alert API: opened creates an alert whose alias is the incident's key, acknowledged
 * and resolved acknowledge and close that alias.
 */
export const deliverOpsgenie: Deliverer = async ({ facts, message, config }, { http, apiUrls }) => {
  const alias = incidentKey(facts);
  const headers = { authorization: `GenieKey ${config.apiKey as string}` };
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
      priority: config.priority ?? 'P3',
      source: 'svc',
      details: { link: message.link },
    },
  });
  return { responseCode: response.status };
};
