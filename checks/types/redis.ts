import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { ignoreTlsErrors, invert, useTls, secretField, username } from '../fields.js';
import { hostPortTarget } from '../targets.js';

/** A Redis (or Valkey) server. */
export const redisCheck = defineCheckType({
  type: 'redis',
  title: 'Redis',
  description: 'Connects to Redis, selects the database and sends PING; the check fails unless PONG comes back.',
  target: hostPortTarget('The server (port 6379 by default).', 'cache.example.com:6379', 6379),
  config: z.strictObject({
    database: z.int().min(0).max(255).default(0).describe('The logical database number.'),
    username: username.describe('The ACL user name (Redis 6+).'),
    password: secretField("The password (requirepass, or the ACL user's)."),
    useTls,
    ignoreTlsErrors,
    invert,
  }),
  sample: { name: 'Session cache', target: 'cache.example.com:6379', config: { database: 0 } },
});
