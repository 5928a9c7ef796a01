/**
 * A probe thread (probe-threads.ts): runs the HTTP and TCP checks the runner hands it, with an
 * egress policy made from the daemon's settings and probe caches of its own.
 */
import { createEgressPolicy } from '../../probes/egress.js';
import { createProbeCaches } from '../../probes/probe-caches.js';
import { runProbe } from '../../probes/run-probe.js';
import { serveBatches } from '../workers/serve-batches.js';
import { startedWith } from '../workers/serve-worker.js';
import type { ProbeThreadJob, ProbeThreadSetup } from './probe-threads.js';

const setup = startedWith<ProbeThreadSetup>();
if (!setup) throw new Error('a probe thread needs its setup');
const egress = createEgressPolicy(setup.egress);
const caches = createProbeCaches();

serveBatches((job: ProbeThreadJob) => runProbe(job.check, { egress, secretValues: job.secretValues, caches }));
