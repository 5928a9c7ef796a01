import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { hostPort, invert } from '../fields.js';
import { dnsNameTarget } from '../targets.js';

/** The DNS record types a check may query. */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CAA', 'CNAME', 'MX', 'NS', 'PTR', 'SOA', 'SRV', 'TXT'] as const;

/** DNS response codes a check may expect. */
export const DNS_RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'] as const;

/** How an answer condition compares an answer's value with its text (exact, case-sensitive). */
export const DNS_ANSWER_OPERATORS = [
  'equals',
  'not-equals',
  'contains',
  'not-contains',
  'starts-with',
  'not-starts-with',
  'ends-with',
  'not-ends-with',
] as const;

const answerCondition = z.strictObject({
  join: z.enum(['and', 'or']).default('and').describe('How the condition joins the ones before it (ignored on the first).'),
  operator: z.enum(DNS_ANSWER_OPERATORS),
  value: z.string().max(1024),
});

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
    answerConditions: z
      .array(answerCondition)
      .min(1)
      .max(50)
      .optional()
      .describe(
        'Conditions on the value of each answer, joined left to right by and/or (no precedence); the check ' +
          'holds when at least one answer meets them. The value of an answer: the address (A, AAAA), the name ' +
          '(CNAME: the first answer only, NS, PTR), the mail exchange name (MX), the target name (SRV), the ' +
          'primary name server (SOA), the issuer of an issue tag (CAA), each string of a record (TXT). ' +
          'Comparisons are exact and case-sensitive, as Uptime Kuma makes them.',
      ),
    requireAnswers: z.boolean().optional().describe('Fail when the query succeeds without answers (NOERROR with no records of the type).'),
    invert,
  }),
  sample: {
    name: 'Apex A record',
    target: 'example.com',
    config: { recordType: 'A', resolver: '1.1.1.1', expectedValues: ['93.184.215.14'] },
  },
});
