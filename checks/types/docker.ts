import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { hostPortProblem, urlProblem } from '../hosts.js';
import { invert } from '../fields.js';
import { containerTarget } from '../targets.js';

// The Docker engine answers on a Unix socket or over TCP; the tcp:// form is what DOCKER_HOST
// uses, http(s):// what the self-hosted monitor stores.
function dockerHostProblem(value: string): string | undefined {
  if (value.startsWith('unix://')) {
    return /^unix:\/\/\/\S+$/.test(value) ? undefined : 'expected unix:///path/to/docker.sock';
  }
  if (value.startsWith('tcp://')) return hostPortProblem(value.slice('tcp://'.length).replace(/\/$/, ''), true);
  return urlProblem(value, ['http', 'https']);
}

/** A Docker container's state. */
export const dockerCheck = defineCheckType({
  type: 'docker',
  title: 'Docker container',
  description: 'Asks the Docker engine about a container; the check succeeds while it is running (and healthy, when it has a health check).',
  target: containerTarget('The container name or id.', 'web-frontend'),
  config: z.strictObject({
    dockerHost: z
      .string()
      .max(2048)
      .superRefine((value, ctx) => {
        const problem = dockerHostProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .default('unix:///var/run/docker.sock')
      .describe('The Docker engine: unix:///path, tcp://host:port or an http(s) URL.'),
    invert,
  }),
  sample: { name: 'Web frontend container', target: 'web-frontend', config: { dockerHost: 'unix:///var/run/docker.sock' } },
});
