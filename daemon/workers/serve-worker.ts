/**
 * The worker side of a WorkerPool (worker-pool.ts): a worker entry calls `serveWorker` with its
 * handler, which answers each job, and may report progress while it works.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** What the pool posts to a worker: a job, or word that a paced progress report was read. */
export type WorkerRequest<Request> = { id: number; request: Request } | { id: number; read: true };

/** What a worker posts back: progress, then the answer or its failure. `paced`: a report the pool says it has read. */
export type WorkerReply<Response, Progress> =
  | { id: number; progress: Progress; paced?: true }
  | { id: number; value: Response }
  | { id: number; error: string };

/** Paced reports a worker sends ahead of the pool's reading: one being read, one ready behind it. */
export const PACED_AHEAD = 2;

/** What the pool started this worker with (WorkerPoolOptions.workerData). */
export function startedWith<T>(): T | undefined {
  return (workerData ?? undefined) as T | undefined;
}

/**
 * Serves the jobs of a WorkerPool on this worker thread with `handler`, one at a time.
 * `paced`: each progress report's promise settles once the pool has read all but PACED_AHEAD - 1
 * of those sent, so that a handler which awaits it never has more than PACED_AHEAD waiting for the
 * main thread, which then reads them a few per turn of its event loop instead of all in one.
 */
export function serveWorker<Request, Response, Progress = never>(
  handler: (request: Request, progress: (report: Progress) => Promise<void>) => Response | Promise<Response>,
  { paced = false }: { paced?: boolean } = {},
): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorker runs on a worker thread only');
  const post = (reply: WorkerReply<Response, Progress>) => port.postMessage(reply);
  // The job being served, and how many of its paced reports the pool has not said it read.
  let current: number | undefined;
  let unread = 0;
  let onRead: (() => void) | undefined;
  const progress = (id: number) => async (report: Progress) => {
    if (!paced) return post({ id, progress: report });
    post({ id, progress: report, paced: true });
    unread++;
    if (unread >= PACED_AHEAD) await new Promise<void>((resolve) => (onRead = resolve));
  };
  port.on('message', async (message: WorkerRequest<Request>) => {
    if ('read' in message) {
      if (message.id !== current) return;
      unread--;
      onRead?.();
      onRead = undefined;
      return;
    }
    const { id, request } = message;
    current = id;
    unread = 0;
    try {
      post({ id, value: await handler(request, progress(id)) });
    } catch (error) {
      post({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}
