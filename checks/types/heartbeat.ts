import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { invert } from '../fields.js';
import { noTarget } from '../targets.js';

/** A push check: the monitored job calls the service, and silence is the failure. */
export const heartbeatCheck = defineCheckType({
  type: 'heartbeat',
  title: 'Heartbeat (push)',
  description:
    'The monitored job pings the service at the end of each run; the check fails when no ping arrives ' +
    'within the period plus the grace time. intervalSeconds is how often the deadline is evaluated.',
  target: noTarget('None: the monitored job calls the service. Leave target out (it is stored as "").'),
  config: z.strictObject({
    periodSeconds: z.int().min(10).max(2_678_400).describe('How often the job is expected to ping, in seconds (up to 31 days).'),
    graceSeconds: z.int().min(0).max(604_800).default(60).describe('Extra time allowed after the period before the check fails, in seconds (up to 7 days).'),
    invert,
  }),
  sample: {
    name: 'Nightly backup',
    config: { periodSeconds: 86_400, graceSeconds: 1800 },
    labels: { job: 'backup' },
  },
});
