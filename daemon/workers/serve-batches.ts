/**
 * The worker side of a BatchedWorker (batched-worker.ts): a worker entry calls `serveBatches`
 * with its handler. Every job of a batch starts at once. The answers wait for one another: they
 * go back in one message once no job is under way, or `REPLY_WAIT_MS` after the first of them
 * came in, whichever is sooner. The runs of one beat end within a few milliseconds of each other,
 * so they cost the daemon's thread one wake-up, not one per answer (docs/monitoring.md). Given
 * a mailbox (the first message, BatchedWorkerOptions.collectEveryMs), the answers are left there
 * instead, and a message (`null`) only tells of answers left unread too long or too many.
 */
import { parentPort } from 'node:worker_threads';
import { AnswerMailbox } from './answer-mailbox.js';
import type { BatchedMailbox, BatchedMessage, BatchedReply, BatchedRequest } from './batched-worker.js';

/** The longest an answer waits for the jobs still under way. */
export const REPLY_WAIT_MS = 20;
/** Answers waiting unread in the mailbox past which word of them is posted at once (high rates). */
export const NUDGE_AT_ANSWERS = 100;

/** Serves a BatchedWorker's jobs on this worker thread with `handler`, many at a time. */
export function serveBatches<Request, Response>(handler: (request: Request) => Promise<Response>): void {
  const port = parentPort;
  if (!port) throw new Error('serveBatches runs on a worker thread only');
  const post = (message: BatchedMessage<Response>) => port.postMessage(message);
  let replies: BatchedReply<Response>[] = [];
  let underWay = 0;
  let waitTimer: NodeJS.Timeout | undefined;
  // With a mailbox (BatchedWorkerOptions.collectEveryMs) the answers wait there for the parent.
  let mailbox: AnswerMailbox | undefined;
  let nudgeAfterMs = 0;
  let nudgeTimer: NodeJS.Timeout | undefined;
  const nudge = () => {
    clearTimeout(nudgeTimer);
    nudgeTimer = undefined;
    if (mailbox && mailbox.waiting > 0) post(null);
  };
  const send = () => {
    clearTimeout(waitTimer);
    waitTimer = undefined;
    const batch = replies;
    replies = [];
    if (batch.length === 0) return;
    if (!mailbox?.put(batch, batch.length)) post(batch);
    else if (mailbox.waiting >= NUDGE_AT_ANSWERS) nudge();
    else nudgeTimer ??= setTimeout(nudge, nudgeAfterMs);
  };
  const reply = (answer: BatchedReply<Response>) => {
    underWay--;
    replies.push(answer);
    if (underWay === 0) send();
    else waitTimer ??= setTimeout(send, REPLY_WAIT_MS);
  };
  port.on('message', (message: BatchedRequest<Request>[] | BatchedMailbox) => {
    if (!Array.isArray(message)) {
      mailbox = new AnswerMailbox(message.mailbox);
      nudgeAfterMs = message.nudgeAfterMs;
      return;
    }
    // The parent has taken what waited: no word needed.
    if (nudgeTimer && mailbox?.waiting === 0) {
      clearTimeout(nudgeTimer);
      nudgeTimer = undefined;
    }
    const batch = message;
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
