/**
 * The worker side of a WorkerPool (worker-pool.ts): a worker entry calls `serveWorker` with its
 * handler, which answers each job, and may report progress while it works.
 */
import { parentPort } from 'node:worker_threads';
/** Serves the jobs of a WorkerPool on this worker thread with `handler`, one at a time. */
export function serveWorker(handler) {
    const port = parentPort;
    if (!port)
        throw new Error('serveWorker runs on a worker thread only');
    const post = (reply) => port.postMessage(reply);
    port.on('message', async ({ id, request }) => {
        try {
            post({ id, value: await handler(request, (report) => post({ id, progress: report })) });
        }
        catch (error) {
            post({ id, error: error instanceof Error ? error.message : String(error) });
        }
    });
}
