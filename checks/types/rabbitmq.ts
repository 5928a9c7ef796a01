import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { ignoreTlsErrors, invert, password, url, username } from '../fields.js';
import { urlTarget } from '../targets.js';

const MANAGEMENT_SCHEMES = ['http', 'https'] as const;

/** A RabbitMQ node, through its management API. */
export const rabbitmqCheck = defineCheckType({
  type: 'rabbitmq',
  title: 'RabbitMQ',
  description:
    'Asks the RabbitMQ management API for the health of the node (and of the other nodes listed); ' + 'the check succeeds when one of them answers healthy.',
  target: urlTarget(MANAGEMENT_SCHEMES, 'The management API base URL of a node.', 'https://rabbit-1.example.com:15671/'),
  config: z.strictObject({
    additionalNodes: z
      .array(url(MANAGEMENT_SCHEMES, "Another node's management API base URL."))
      .max(20)
      .default([])
      .describe('Management URLs of other nodes, tried when the target does not answer.'),
    username,
    password,
    ignoreTlsErrors,
    invert,
  }),
  sample: {
    name: 'Message broker',
    target: 'https://rabbit-1.example.com:15671/',
    config: { additionalNodes: ['https://rabbit-2.example.com:15671/'], username: 'monitoring' },
  },
});
