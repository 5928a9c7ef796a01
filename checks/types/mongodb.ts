import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { ignoreTlsErrors, invert, password, useTls, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** A MongoDB server or cluster. */
export const mongodbCheck = defineCheckType({
  type: 'mongodb',
  title: 'MongoDB',
  description: 'Connects to MongoDB and runs a database command (ping by default); the check fails on any error.',
  target: hostPortTarget('A server of the deployment (port 27017 by default), or the SRV name when srv is set.', 'mongo.example.com:27017', 27017),
  config: z.strictObject({
    srv: z.boolean().default(false).describe('Discover the servers through the DNS SRV record of the target (mongodb+srv).'),
    database: z.string().min(1).max(64).optional().describe('The database the command runs against (admin when absent).'),
    username,
    password,
    command: z.record(z.string(), z.unknown()).optional().describe('A database command document, e.g. {"ping": 1}; {"ping": 1} when absent.'),
    useTls,
    ignoreTlsErrors,
    invert,
  }),
  sample: {
    name: 'Catalogue MongoDB',
    target: 'mongo.example.com:27017',
    config: { database: 'catalogue', username: 'monitor', command: { ping: 1 } },
  },
});
