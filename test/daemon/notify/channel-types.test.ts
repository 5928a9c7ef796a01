import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPES, type ChannelTypeInfo } from '../../../contract/notification-channels.js';
import { DeliveryError } from '../../../daemon/notify/delivery-error.js';
import type { DelivererContext } from '../../../daemon/notify/channels/channel-type.js';
import { CHANNEL_TYPE_DEFINITIONS } from '../../../daemon/notify/channels/index.js';
import { renderMessage, type NotificationFacts } from '../../../daemon/notify/message.js';
import { startTestDaemon } from '../../support/daemon.js';

// One definition per channel type (daemon/notify/channels/): its schema, secrets, destination,
// sample and deliverer. The API's list, the validation and the deliverer all read it.

describe('channel type definitions', () => {
  it('define every type of the contract, each with a sample its own schema accepts', () => {
    expect(Object.keys(CHANNEL_TYPE_DEFINITIONS).sort()).toEqual([...CHANNEL_TYPES].sort());
    for (const [type, definition] of Object.entries(CHANNEL_TYPE_DEFINITIONS)) {
      expect(definition.type).toBe(type);
      expect(definition.schema.safeParse(definition.sample).success, type).toBe(true);
    }
  });

  it('never hand a deliverer settings its schema refuses: the delivery fails for good, saying why', async () => {
    const facts: NotificationFacts = {
      event: 'test',
      occurredAt: '2026-01-01T00:00:00.000Z',
      organization: { uid: 'o', slug: 'acme', name: 'Acme' },
      check: null,
      incident: null,
      lastResultMessage: null,
    };
    let sent = 0;
    const send = async () => {
      sent++;
      return { status: 200, body: '' };
    };
    const context = { http: { send } } as unknown as DelivererContext;
    const delivery = { uid: 'd', facts, message: renderMessage(facts, 'http://127.0.0.1'), now: new Date(), config: { webhookUrl: 'ftp://nope' } };
    const failure = await CHANNEL_TYPE_DEFINITIONS.discord.deliver(delivery, context).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeliveryError);
    expect(failure).toMatchObject({ permanent: true, message: expect.stringContaining('not valid for a discord channel') });
    expect(sent).toBe(0);
  });
});

describe.each(['sqlite', 'postgres'] as const)('GET /channel-types [%s]', (kind) => {
  it('answers every type from its definition, and the daemon accepts each sample as a channel', async () => {
    const daemon = await startTestDaemon(kind);
    try {
      const token = await daemon.adminToken();
      const answer = await daemon.request('GET', '/channel-types', { token });
      expect(answer.status).toBe(200);
      const types = answer.body as ChannelTypeInfo[];
      expect(types.map((t) => t.type)).toEqual([...CHANNEL_TYPES]);
      const webhook = types.find((t) => t.type === 'webhook')!;
      expect(webhook).toMatchObject({ secrets: ['url', 'bearerToken', 'signingSecret'], destination: ['url'] });
      expect(webhook.configSchema).toMatchObject({ type: 'object', required: ['url'] });
      for (const type of types) {
        const created = await daemon.request('POST', '/orgs/default/notification-channels', {
          token,
          body: { name: `sample ${type.type}`, type: type.type, config: type.sample },
        });
        expect(created.status, `${type.type}: ${JSON.stringify(created.body)}`).toBe(201);
      }
      expect((await daemon.request('GET', '/channel-types')).status).toBe(401);
    } finally {
      await daemon.stop();
    }
  });
});
