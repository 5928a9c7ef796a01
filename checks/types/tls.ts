import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { expiryDays, invert } from '../fields.js';
import { isHostName } from '../hosts.js';
import { hostPortTarget } from '../targets.js';

/** A TLS handshake and the certificate it presents. */
export const tlsCheck = defineCheckType({
  type: 'tls',
  title: 'TLS certificate',
  description: 'Performs a TLS handshake, verifies the certificate chain and alerts before the certificate expires.',
  target: hostPortTarget('The host and port to connect to (port 443 by default).', 'example.com:443', 443),
  config: z.strictObject({
    expiryThresholdDays: expiryDays('Fail when the certificate expires within this many days.').default(14),
    startTls: z.boolean().default(false).describe('Connect in plain text and upgrade with SMTP STARTTLS before the handshake.'),
    serverName: z
      .string()
      .refine(isHostName, 'expected a host name')
      .optional()
      .describe('The name sent in SNI and matched against the certificate; the target host when absent.'),
    invert,
  }),
  sample: { name: 'Website certificate', target: 'www.example.com:443', config: { expiryThresholdDays: 21 } },
});
