/** The worker of bcrypt-pool.ts: one bcrypt hash or comparison per job. */
import bcrypt from 'bcryptjs';
import { serveWorker } from '../../workers/serve-worker.js';
import type { BcryptJob } from './bcrypt-pool.js';

serveWorker<BcryptJob, string | boolean>((job) =>
  job.op === 'hash' ? bcrypt.hashSync(job.input, bcrypt.genSaltSync(job.cost)) : bcrypt.compareSync(job.input, job.stored),
);
