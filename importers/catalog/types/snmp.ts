import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { condition, invert, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** An SNMP GET of one object. */
export const snmpCheck = defineCheckType({
  type: 'snmp',
  title: 'SNMP',
  description:
    'Reads one OID over SNMP and compares its value. The community string (v1/v2c) or v3 passphrases ' +
    'are secrets: they are provided to the runner, never stored in a check.',
  target: hostPortTarget('The agent (port 161 by default).', 'switch-1.example.com:161', 161),
  config: z
    .strictObject({
      version: z.enum(['1', '2c', '3']).default('2c'),
      oid: z.string().regex(/^\.?\d+(?:\.\d+)+$/, 'expected a numeric OID such as 1.3.6.1.2.1.1.3.0'),
      v3Username: username.describe('The SNMPv3 security name (version 3 only).'),
      condition: condition.optional().describe('A comparison the value must satisfy; any answer succeeds when absent.'),
      invert,
    })
    .refine((config) => config.v3Username === undefined || config.version === '3', {
      path: ['v3Username'],
      message: 'only used with version 3',
    }),
  sample: {
    name: 'Core switch uptime',
    target: 'switch-1.example.com',
    config: { version: '2c', oid: '1.3.6.1.2.1.1.3.0', condition: { operator: '>', expected: 0 } },
  },
});
