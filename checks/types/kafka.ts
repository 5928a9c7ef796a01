import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { hostPort, ignoreTlsErrors, invert, password, useTls, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** A Kafka cluster that accepts a produced message. */
export const kafkaCheck = defineCheckType({
  type: 'kafka',
  title: 'Kafka producer',
  description: 'Produces a message to a Kafka topic; the check succeeds when the cluster acknowledges it.',
  target: hostPortTarget('A bootstrap broker (port 9092 by default).', 'kafka-1.example.com:9092', 9092),
  config: z.strictObject({
    topic: z.string().regex(/^[A-Za-z0-9._-]{1,249}$/, 'topic names are 1 to 249 letters, digits, ".", "_" and "-"'),
    message: z.string().max(65_536).default('svc health check').describe('The message value produced.'),
    additionalBrokers: z.array(hostPort('Another bootstrap broker as host:port.', true)).max(20).default([]).describe('Bootstrap brokers besides the target.'),
    useTls,
    ignoreTlsErrors,
    sasl: z
      .strictObject({
        mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512', 'aws']),
        username,
        password,
      })
      .optional()
      .describe('SASL authentication; the password is a secret reference.'),
    allowAutoTopicCreation: z.boolean().default(false),
    invert,
  }),
  sample: {
    name: 'Events cluster',
    target: 'kafka-1.example.com:9092',
    config: {
      topic: 'monitoring',
      additionalBrokers: ['kafka-2.example.com:9092'],
      useTls: true,
      sasl: { mechanism: 'scram-sha-512', username: 'monitor' },
    },
  },
});
