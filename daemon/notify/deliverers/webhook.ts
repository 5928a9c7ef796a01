import { signatureHeader } from '../signature.js';
import type { Deliverer } from './deliverer.js';

/**
 * Generic webhook: the documented JSON body (docs/notifications.md), signed with
 * `X-Svc-Signature` when the channel has a signing secret.
 */
export const deliverWebhook: Deliverer = async ({ uid, facts, message, config, now }, { http }) => {
  const body = JSON.stringify({
    id: uid,
    event: facts.event,
    occurredAt: facts.occurredAt,
    organization: { slug: facts.organization.slug, name: facts.organization.name },
    check: facts.check && { slug: facts.check.slug, name: facts.check.name, type: facts.check.type, target: facts.check.target },
    incident: facts.incident,
    lastResultMessage: facts.lastResultMessage,
    ...(facts.flapping ? { flapping: facts.flapping } : {}),
    title: message.title,
    text: message.text,
    link: message.link,
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-svc-event': facts.event, 'x-svc-delivery': uid };
  if (typeof config.signingSecret === 'string') headers['x-svc-signature'] = signatureHeader(config.signingSecret, body, now);
  if (typeof config.bearerToken === 'string') headers.authorization = `Bearer ${config.bearerToken}`;
  const response = await http.send(config.url as string, { method: (config.method as 'POST' | 'PUT') ?? 'POST', headers, text: body });
  return { responseCode: response.status };
};
