import { z } from 'zod';
import { defineChannelType, incidentKey, joinUrl } from './channel-type.js';

const ACTIONS = {
  'incident.opened': 'trigger',
  'check.flapping': 'trigger',
  test: 'trigger',
  'incident.acknowledged': 'acknowledge',
  'incident.resolved': 'resolve',
} as const;

/**
 * PagerDuty Events API v2: opened triggers, acknowledged acknowledges and resolved resolves
 * the alert whose dedup key is the incident's own, so one incident is one PagerDuty alert.
 */
export const pagerdutyChannel = defineChannelType({
  type: 'pagerduty',
  title: 'PagerDuty',
  description: "An Events API v2 integration's routing key; one incident is one PagerDuty alert.",
  schema: z.strictObject({
    routingKey: z.string().min(20).max(64).regex(/^\w+$/, 'letters and digits only'),
    severity: z.enum(['critical', 'error', 'warning', 'info']).default('critical'),
  }),
  secrets: ['routingKey'],
  destination: ['routingKey'],
  sample: { routingKey: 'replacewiththeroutingkey00', severity: 'critical' },
  deliver: async ({ facts, message, config }, { http, apiUrls }) => {
    const action = ACTIONS[facts.event];
    const event: Record<string, unknown> = { routing_key: config.routingKey, event_action: action, dedup_key: incidentKey(facts) };
    if (action === 'trigger') {
      event.payload = {
        summary: message.title.slice(0, 1024),
        source: facts.check ? `${facts.check.type} ${facts.check.target}` : 'svc',
        severity: facts.event === 'test' ? 'info' : config.severity,
        timestamp: facts.occurredAt,
        component: facts.check?.slug,
        custom_details: { text: message.text, lastResultMessage: facts.lastResultMessage },
      };
      event.links = [{ href: message.link, text: 'Open in svc' }];
      event.client = 'svc';
      event.client_url = message.link;
    }
    const response = await http.send(joinUrl(apiUrls.pagerduty, 'v2/enqueue'), { json: event });
    return { responseCode: response.status };
  },
});
