import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { condition, invert, secretField, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** An SNMP GET of one object. */
export const snmpCheck = defineCheckType({
  type: 'snmp',
  title: 'SNMP',
  description: 'Reads one OID over SNMP and compares its value. The community string (v1/v2c) and the v3 passphrases ' + 'are secret references.',
  target: hostPortTarget('The agent (port 161 by default).', 'switch-1.example.com:161', 161),
  config: z
    .strictObject({
      version: z.enum(['1', '2c', '3']).default('2c'),
      oid: z.string().regex(/^\.?\d+(?:\.\d+)+$/, 'expected a numeric OID such as 1.3.6.1.2.1.1.3.0'),
      community: secretField('The community string (versions 1 and 2c; "public" when absent).'),
      v3Username: username.describe('The SNMPv3 security name (version 3 only).'),
      authKey: secretField('The SNMPv3 authentication passphrase (SHA); without it, no authentication.'),
      privKey: secretField('The SNMPv3 privacy passphrase (AES); needs authKey.'),
      condition: condition.optional().describe('A comparison the value must satisfy; any answer succeeds when absent.'),
      invert,
    })
    .refine((config) => config.v3Username === undefined || config.version === '3', {
      path: ['v3Username'],
      message: 'only used with version 3',
    })
    .refine((config) => config.community === undefined || config.version !== '3', {
      path: ['community'],
      message: 'only used with versions 1 and 2c',
    })
    .refine((config) => (config.authKey === undefined && config.privKey === undefined) || config.version === '3', {
      path: ['authKey'],
      message: 'only used with version 3',
    })
    .refine((config) => config.privKey === undefined || config.authKey !== undefined, {
      path: ['privKey'],
      message: 'privacy needs authKey too',
    }),
  sample: {
    name: 'Core switch uptime',
    target: 'switch-1.example.com',
    config: { version: '2c', oid: '1.3.6.1.2.1.1.3.0', condition: { operator: '>', expected: 0 } },
  },
});
