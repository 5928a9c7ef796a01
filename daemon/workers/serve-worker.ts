/**
 * The worker side of a WorkerPool (worker-pool.ts): a worker entry calls `serveWorker` with its
 * handler, which answers each job, and may report progress while it works.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** What the pool posts to a worker. */
export interface WorkerRequest<Request> {
  id: number;
  request: Request;
}

/** What a worker posts back: progress, then the answer or its failure. */
export type WorkerReply<Response, Progress> = { id: number; progress: Progress } | { id: number; value: Response } | { id: number; error: string };

/** What the pool started this worker with (WorkerPoolOptions.workerData). */
export function startedWith<T>(): T | undefined {
  return (workerData ?? undefined) as T | undefined;
}

/** Serves the jobs of a WorkerPool on this worker thread with `handler`, one at a time. */
export function serveWorker<Request, Response, Progress = never>(
  handler: (request: Request, progress: (report: Progress) => void) => Response | Promise<Response>,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorker runs on a worker thread only');
  const post = (reply: WorkerReply<Response, Progress>) => port.postMessage(reply);
  port.on('message', async ({ id, request }: WorkerRequest<Request>) => {
    try {
      post({ id, value: await handler(request, (report) => post({ id, progress: report })) });
    } catch (error) {
      post({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
