/**
 * The worker side of a BatchedWorker (batched-worker.ts): a worker entry calls `serveBatches`
 * with its handler. Every job of a batch starts at once. The answers wait for one another: they
 * go back in one message once no job is under way, or `REPLY_WAIT_MS` after the first of them
 * came in, whichever is sooner. The runs of one beat end within a few milliseconds of each other,
 * so they cost the daemon's thread one wake-up, not one per answer (docs/monitoring.md).
 */
import { parentPort } from 'node:worker_threads';
import type { BatchedReply, BatchedRequest } from './batched-worker.js';

/** The longest an answer waits for the jobs still under way. */
export const REPLY_WAIT_MS = 20;

/** Serves a BatchedWorker's jobs on this worker thread with `handler`, many at a time. */
export function serveBatches<Request, Response>(handler: (request: Request) => Promise<Response>): void {
  const port = parentPort;
  if (!port) throw new Error('serveBatches runs on a worker thread only');
  let replies: BatchedReply<Response>[] = [];
  let underWay = 0;
  let waitTimer: NodeJS.Timeout | undefined;
  const send = () => {
    clearTimeout(waitTimer);
    waitTimer = undefined;
    const batch = replies;
    replies = [];
    if (batch.length > 0) port.postMessage(batch);
  };
  const reply = (answer: BatchedReply<Response>) => {
    underWay--;
    replies.push(answer);
    if (underWay === 0) send();
    else waitTimer ??= setTimeout(send, REPLY_WAIT_MS);
  };
  port.on('message', (batch: BatchedRequest<Request>[]) => {
    underWay += batch.length;
    for (const [id, request] of batch) {
      let answer: Promise<Response>;
      try {
        answer = handler(request);
      } catch (error) {
        answer = Promise.reject(error);
      }
      answer.then(
        (value) => reply([id, true, value]),
        (error: unknown) => reply([id, false, error instanceof Error ? error.message : String(error)]),
      );
    }
  });
}
