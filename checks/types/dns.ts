import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { hostPort, invert } from '../fields.js';
import { dnsNameTarget } from '../targets.js';

/** The DNS record types a check may query. */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'PTR', 'SOA', 'SRV', 'TXT'] as const;

/** DNS response codes a check may expect. */
export const DNS_RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'] as const;

/** A DNS query and the answers expected. */
export const dnsCheck = defineCheckType({
  type: 'dns',
  title: 'DNS record',
  description: 'Resolves a name and checks the response code and, optionally, the answers.',
  target: dnsNameTarget('The name to resolve (an IP address for PTR queries).', 'example.com'),
  config: z.strictObject({
    recordType: z.enum(DNS_RECORD_TYPES).default('A'),
    resolver: hostPort('The resolver as host[:port] (port 53 by default); the system resolver when absent.', false).optional(),
    expectedRcode: z.enum(DNS_RCODES).default('NOERROR'),
    expectedValues: z
      .array(z.string().min(1).max(1024))
      .max(50)
      .default([])
      .describe('Every value listed must appear among the answers (e.g. an address, "10 mx.example.com").'),
    invert,
  }),
  sample: {
    name: 'Apex A record',
    target: 'example.com',
    config: { recordType: 'A', resolver: '1.1.1.1', expectedValues: ['93.184.215.14'] },
  },
});
