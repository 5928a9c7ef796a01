import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { invert, keyword } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** A TCP connection, optionally with a payload and an expected reply. */
export const tcpCheck = defineCheckType({
  type: 'tcp',
  title: 'TCP port',
  description: 'Opens a TCP connection; optionally sends a payload and looks for a keyword in the reply.',
  target: hostPortTarget('The host and port to connect to.', 'db.example.com:5432'),
  config: z.strictObject({
    send: z.string().max(65_536).optional().describe('Text sent once connected.'),
    keyword: keyword.optional(),
    invert,
  }),
  sample: { name: 'Mail relay port', target: 'mail.example.com:25', config: {} },
});
