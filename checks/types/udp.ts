import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { invert, keyword } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** A UDP datagram and, usually, its reply. */
export const udpCheck = defineCheckType({
  type: 'udp',
  title: 'UDP port',
  description: 'Sends a UDP datagram; the check succeeds when a reply arrives (and contains the keyword, when one is set).',
  target: hostPortTarget('The host and port to send to.', 'game.example.com:27015'),
  config: z.strictObject({
    send: z.string().max(65_536).optional().describe('The datagram payload; most UDP services only answer a valid request.'),
    keyword: keyword.optional(),
    invert,
  }),
  sample: {
    name: 'Game server',
    target: 'game.example.com:27015',
    config: { send: 'status', keyword: { value: 'online' } },
  },
});
