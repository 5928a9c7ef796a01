/** The worker of json-query-pool.ts: evaluates one run's JSON queries, saying which one it starts. */
import { createJsonQueryCheck } from '../../probes/json-queries.js';
import { serveWorker } from '../workers/serve-worker.js';
import type { JsonQueryJob } from './json-query-pool.js';

const check = createJsonQueryCheck();

serveWorker<JsonQueryJob, string | null, number>(async ({ data, queries }, progress) => (await check(data, queries, progress)) ?? null);
