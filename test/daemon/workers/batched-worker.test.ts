import { describe, expect, it } from 'vitest';
import { BatchedWorker } from '../../../daemon/workers/batched-worker.js';
import { MAILBOX_BYTES } from '../../../daemon/workers/answer-mailbox.js';
import { NUDGE_AT_ANSWERS, REPLY_WAIT_MS } from '../../../daemon/workers/serve-batches.js';
import { closedAfterEach } from '../../support/closed-after-each.js';

// The worker side is the compiled serve-batches.js in dist/ (`node scripts/build.mjs` first),
// loaded by a worker written here as a data: URL. It counts the batches it receives and sends.
const serveBatches = new URL('../../../dist/daemon/workers/serve-batches.js', import.meta.url).href;
const ENTRY = new URL(
  `data:text/javascript,${encodeURIComponent(`
import { parentPort } from 'node:worker_threads';
import { serveBatches } from ${JSON.stringify(serveBatches)};
let batchesIn = 0;
let batchesOut = 0;
parentPort.on('message', () => batchesIn++);
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (message) => (batchesOut++, post(message));
serveBatches(async (job) => {
  if (job.kind === 'echo') return job.value;
  if (job.kind === 'slow') return new Promise((resolve) => setTimeout(() => resolve(job.value), job.ms));
  if (job.kind === 'fail') throw new Error('refused: ' + job.value);
  if (job.kind === 'throw-now') { throw new Error('thrown before any promise'); }
  if (job.kind === 'counts') return { batchesIn, batchesOut };
  if (job.kind === 'exit') process.exit(3);
});
`)}`,
);

type Job = { kind: 'echo' | 'slow' | 'fail' | 'throw-now' | 'counts' | 'exit'; value?: unknown; ms?: number };

describe('a batched worker', () => {
  const worker = closedAfterEach(() => new BatchedWorker<Job, unknown>({ entry: ENTRY }));

  it('answers each job with its own value, the jobs of one turn going over in one message and back in one', async () => {
    const thread = worker();
    await thread.run({ kind: 'echo', value: 'warm' });
    const before = (await thread.run({ kind: 'counts' })) as { batchesIn: number; batchesOut: number };
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => thread.run({ kind: 'echo', value: { i } })));
    expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => ({ i })));
    const after = (await thread.run({ kind: 'counts' })) as { batchesIn: number; batchesOut: number };
    // Between the two counts: the 200 jobs' one batch each way, and the second count's own batch in
    // and the first count's answer out.
    expect(after.batchesIn - before.batchesIn).toBe(2);
    expect(after.batchesOut - before.batchesOut).toBe(2);
    expect(thread.pending).toBe(0);
  });

  it('sends the answers of jobs that end a few milliseconds apart back in one message', async () => {
    const thread = worker();
    await thread.run({ kind: 'echo', value: 'warm' });
    const before = (await thread.run({ kind: 'counts' })) as { batchesIn: number; batchesOut: number };
    const answers = await Promise.all([2, 6, 10].map((ms) => thread.run({ kind: 'slow', value: ms, ms })));
    expect(answers).toEqual([2, 6, 10]);
    const after = (await thread.run({ kind: 'counts' })) as { batchesIn: number; batchesOut: number };
    // Out between the two counts: the first count's answer, and the three answers together.
    expect(after.batchesOut - before.batchesOut).toBe(2);
  });

  it(`does not hold an answer back more than ${REPLY_WAIT_MS} ms for a job still under way`, async () => {
    const thread = worker();
    await thread.run({ kind: 'echo', value: 'warm' });
    const slow = thread.run({ kind: 'slow', value: 'late', ms: 1000 });
    const started = performance.now();
    expect(await thread.run({ kind: 'slow', value: 'early', ms: 1 })).toBe('early');
    expect(performance.now() - started).toBeLessThan(500);
    expect(await slow).toBe('late');
  });

  it("runs a batch's jobs at once: a slow job does not hold the others", async () => {
    const thread = worker();
    const slow = thread.run({ kind: 'slow', value: 'late', ms: 400 });
    const started = Date.now();
    expect(await thread.run({ kind: 'echo', value: 'early' })).toBe('early');
    expect(Date.now() - started).toBeLessThan(350);
    expect(thread.pending).toBe(1);
    expect(await slow).toBe('late');
  });

  it("rejects a failed job with the worker's words, whether it threw at once or later, and keeps serving", async () => {
    const thread = worker();
    await expect(thread.run({ kind: 'fail', value: 'no' })).rejects.toThrow('refused: no');
    await expect(thread.run({ kind: 'throw-now' })).rejects.toThrow('thrown before any promise');
    expect(await thread.run({ kind: 'echo', value: 1 })).toBe(1);
  });

  it('fails the jobs a stopped worker held, and serves the next one on a fresh worker', async () => {
    const thread = worker();
    const held = thread.run({ kind: 'slow', value: 'never', ms: 10_000 });
    const exit = thread.run({ kind: 'exit' });
    await expect(held).rejects.toThrow('the worker stopped with exit code 3');
    await expect(exit).rejects.toThrow('the worker stopped with exit code 3');
    expect(thread.pending).toBe(0);
    expect(await thread.run({ kind: 'echo', value: 'again' })).toBe('again');
  });

  it('fails a job it cannot copy to the thread, and the jobs of later turns still run', async () => {
    const thread = worker();
    await expect(thread.run({ kind: 'echo', value: () => 1 })).rejects.toThrow(/could not be cloned/);
    expect(await thread.run({ kind: 'echo', value: 2 })).toBe(2);
  });

  it('rejects what is under way or asked once it is closed', async () => {
    const thread = worker();
    const held = thread.run({ kind: 'slow', value: 'never', ms: 10_000 });
    const ended = expect(held).rejects.toThrow('the worker is closed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await thread.close();
    await ended;
    await expect(thread.run({ kind: 'echo', value: 1 })).rejects.toThrow('the worker is closed');
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Awaits `answer`, calling `collect()` every 20 ms meanwhile, as the runner does on its beat. */
async function collected<T>(thread: BatchedWorker<Job, unknown>, answer: Promise<T>): Promise<T> {
  let done = false;
  void answer.finally(() => {
    done = true;
  });
  while (!done) {
    await sleep(20);
    thread.collect();
  }
  return answer;
}

// The runner's probe threads: their answers wait in shared memory (answer-mailbox.ts) for the
// runner's next beat instead of waking its thread with a message.
describe('a batched worker whose answers wait in a mailbox', () => {
  const worker = closedAfterEach(() => new BatchedWorker<Job, unknown>({ entry: ENTRY, collectEveryMs: 60_000 }));
  const nudging = closedAfterEach(() => new BatchedWorker<Job, unknown>({ entry: ENTRY, collectEveryMs: 50 }));

  it('leaves its answers for collect() and posts nothing', async () => {
    const thread = worker();
    expect(await collected(thread, thread.run({ kind: 'echo', value: 'warm' }))).toBe('warm');
    const answers = Promise.all([1, 2, 3].map((value) => thread.run({ kind: 'echo', value })));
    await sleep(200);
    expect(thread.pending).toBe(3);
    expect(await collected(thread, answers)).toEqual([1, 2, 3]);
    const counts = (await collected(thread, thread.run({ kind: 'counts' }))) as { batchesOut: number };
    expect(counts.batchesOut).toBe(0);
  });

  it('posts word of answers left unread for twice the time it was promised a look', async () => {
    expect(await nudging().run({ kind: 'echo', value: 'nudged' })).toBe('nudged');
  });

  it(`posts word at once when ${NUDGE_AT_ANSWERS} answers or more wait`, async () => {
    const thread = worker();
    const values = Array.from({ length: NUDGE_AT_ANSWERS + 10 }, (_, i) => i);
    expect(await Promise.all(values.map((value) => thread.run({ kind: 'echo', value })))).toEqual(values);
  });

  it('posts a batch of answers that does not fit', async () => {
    const value = 'x'.repeat(MAILBOX_BYTES);
    expect(await worker().run({ kind: 'echo', value })).toBe(value);
  });

  it('still gives the answers a lost worker left', async () => {
    const thread = worker();
    const kept = thread.run({ kind: 'echo', value: 'kept' });
    await sleep(300);
    await expect(thread.run({ kind: 'exit' })).rejects.toThrow('the worker stopped with exit code 3');
    expect(await kept).toBe('kept');
  });
});
