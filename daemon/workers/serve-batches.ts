/**
 * The worker side of a BatchedWorker (batched-worker.ts): a worker entry calls `serveBatches`
 * with its handler. Every job of a batch starts at once; the answers that come in during one
 * turn of this thread's event loop go back in one message.
 */
import { parentPort } from 'node:worker_threads';
import type { BatchedReply, BatchedRequest } from './batched-worker.js';

/** Serves a BatchedWorker's jobs on this worker thread with `handler`, many at a time. */
export function serveBatches<Request, Response>(handler: (request: Request) => Promise<Response>): void {
  const port = parentPort;
  if (!port) throw new Error('serveBatches runs on a worker thread only');
  let replies: BatchedReply<Response>[] = [];
  const send = () => {
    const batch = replies;
    replies = [];
    port.postMessage(batch);
  };
  const reply = (answer: BatchedReply<Response>) => {
    if (replies.push(answer) === 1) setImmediate(send);
  };
  port.on('message', (batch: BatchedRequest<Request>[]) => {
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
