import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { invert } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** An NTP server's answer and its quality. */
export const ntpCheck = defineCheckType({
  type: 'ntp',
  title: 'NTP server',
  description: 'Queries an NTP server and checks its clock offset, stratum and root dispersion.',
  target: hostPortTarget('The server (port 123 by default).', 'time.example.com:123', 123),
  config: z.strictObject({
    maxOffsetMs: z.int().min(1).max(3_600_000).default(1000).describe('Largest acceptable clock offset, in milliseconds.'),
    maxStratum: z.int().min(1).max(15).default(5).describe('Largest acceptable stratum.'),
    maxRootDispersionMs: z.int().min(1).max(3_600_000).default(500).describe('Largest acceptable root dispersion, in milliseconds.'),
    invert,
  }),
  sample: { name: 'Office time server', target: 'time.example.com', config: { maxOffsetMs: 250 } },
});
