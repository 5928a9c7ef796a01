import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { expiryDays, invert } from '../fields.js';
import { domainTarget } from '../targets.js';

/** The registration expiry of a domain name. */
export const domainCheck = defineCheckType({
  type: 'domain',
  title: 'Domain expiry',
  description: 'Looks up the registration of a domain (RDAP/WHOIS) and alerts before it expires.',
  target: domainTarget('The registered domain name.', 'example.com'),
  config: z.strictObject({
    expiryThresholdDays: expiryDays('Fail when the registration expires within this many days.').default(30),
    invert,
  }),
  sample: { name: 'example.com registration', target: 'example.com', config: { expiryThresholdDays: 30 } },
});
