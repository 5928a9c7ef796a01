import { z } from 'zod';
import { signatureHeader } from '../signature.js';
import { defineChannelType, httpUrl, token } from './channel-type.js';

/**
 * Generic webhook: the documented JSON body (docs/notifications.md), signed with
 * `X-Svc-Signature` when the channel has a signing secret.
 */
export const webhookChannel = defineChannelType({
  type: 'webhook',
  title: 'Webhook',
  description: 'A JSON POST (or PUT) of every event to your URL, optionally with a bearer token and signed with X-Svc-Signature.',
  schema: z.strictObject({
    url: httpUrl(['http', 'https']),
    method: z.enum(['POST', 'PUT']).default('POST'),
    bearerToken: token.optional(),
    /** Signs every delivery (`X-Svc-Signature`), so the receiver can tell it came from here. */
    signingSecret: z.string().min(16).max(256).optional(),
  }),
  secrets: ['url', 'bearerToken', 'signingSecret'],
  destination: ['url'],
  sample: { url: 'https://hooks.example.com/svc', method: 'POST' },
  deliver: async ({ uid, facts, message, config, now }, { http }) => {
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
    if (config.signingSecret !== undefined) headers['x-svc-signature'] = signatureHeader(config.signingSecret, body, now);
    if (config.bearerToken !== undefined) headers.authorization = `Bearer ${config.bearerToken}`;
    const response = await http.send(config.url, { method: config.method, headers, text: body });
    return { responseCode: response.status };
  },
});
