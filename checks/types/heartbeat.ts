import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { cronProblem, isTimeZone } from '../cron-schedule.js';
import { invert } from '../fields.js';
import { noTarget } from '../targets.js';

/** A push check: the monitored job calls the service, and silence is the failure. */
export const heartbeatCheck = defineCheckType({
  type: 'heartbeat',
  title: 'Heartbeat (push)',
  description:
    'The monitored job pings the service at the end of each run; the check fails when no ping arrives ' +
    'within the period (or by the next time of its cron schedule) plus the grace time. Give exactly one of periodSeconds ' +
    'and schedule. A job may also signal its start (/start: the run is down when it does not finish within the grace time, ' +
    'and its duration is the latency) and its exit status. intervalSeconds is how often the deadline is evaluated.',
  target: noTarget('None: the monitored job calls the service. Leave target out (it is stored as "").'),
  config: z
    .strictObject({
      periodSeconds: z.int().min(10).max(2_678_400).optional().describe('How often the job is expected to ping, in seconds (up to 31 days).'),
      schedule: z
        .string()
        .trim()
        .max(100)
        .optional()
        .describe('When the job runs, as a five-field cron expression (e.g. "0 2 * * *"), instead of periodSeconds.'),
      timezone: z.string().max(64).optional().describe('The IANA time zone the schedule is read in (e.g. "Europe/Berlin"); UTC when left out.'),
      graceSeconds: z.int().min(0).max(604_800).default(60).describe('Extra time allowed after the period before the check fails, in seconds (up to 7 days).'),
      invert,
    })
    .superRefine((config, ctx) => {
      if ((config.periodSeconds === undefined) === (config.schedule === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['periodSeconds'], message: 'give exactly one of periodSeconds and schedule' });
      }
      const problem = config.schedule === undefined ? undefined : cronProblem(config.schedule);
      if (problem) ctx.addIssue({ code: 'custom', path: ['schedule'], message: problem });
      if (config.timezone !== undefined && config.schedule === undefined) {
        ctx.addIssue({ code: 'custom', path: ['timezone'], message: 'a timezone needs a schedule' });
      } else if (config.timezone !== undefined && !isTimeZone(config.timezone)) {
        ctx.addIssue({ code: 'custom', path: ['timezone'], message: 'not a known time zone (expected a name like "Europe/Berlin")' });
      }
    }),
  sample: {
    name: 'Nightly backup',
    config: { periodSeconds: 86_400, graceSeconds: 1800 },
    labels: { job: 'backup' },
  },
});
