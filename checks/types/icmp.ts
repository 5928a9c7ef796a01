import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { invert } from '../fields.js';
import { hostTarget } from '../targets.js';

/** An ICMP echo (ping). */
export const icmpCheck = defineCheckType({
  type: 'icmp',
  title: 'Ping (ICMP)',
  description: 'Sends ICMP echo requests; the check succeeds when replies arrive.',
  target: hostTarget('The host name or IP address to ping.', 'router.example.com'),
  config: z.strictObject({
    count: z.int().min(1).max(10).default(1).describe('Echo requests per probe; one reply is enough.'),
    packetSize: z.int().min(1).max(65_500).default(56).describe('Payload bytes per echo request.'),
    invert,
  }),
  sample: { name: 'Core router', target: '192.0.2.1', config: { count: 3, packetSize: 56 } },
});
