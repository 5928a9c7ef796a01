import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { ignoreTlsErrors, invert, jsonQueries, keyword, password, useTls, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** An MQTT broker and a message on one of its topics. */
export const mqttCheck = defineCheckType({
  type: 'mqtt',
  title: 'MQTT',
  description:
    'Subscribes to a topic on an MQTT broker; the check succeeds when a message arrives within the timeout ' +
    '(containing the keyword and satisfying the JSON assertions, when set).',
  target: hostPortTarget('The broker; the port defaults to 1883 (8883 is usual with TLS).', 'broker.example.com:1883', 1883),
  config: z.strictObject({
    topic: z.string().min(1).max(1024).describe('The topic to subscribe to; wildcards + and # are allowed.'),
    username,
    password,
    useTls,
    ignoreTlsErrors,
    websocketPath: z
      .string()
      .regex(/^\/\S*$/, 'expected a path starting with "/"')
      .optional()
      .describe('Connect with MQTT over WebSocket at this path instead of plain MQTT.'),
    keyword: keyword.optional(),
    jsonQueries,
    invert,
  }),
  sample: {
    name: 'Sensor feed',
    target: 'broker.example.com:8883',
    config: { topic: 'sensors/+/status', useTls: true, keyword: { value: 'online', caseSensitive: false } },
  },
});
