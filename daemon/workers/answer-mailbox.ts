/**
 * Answers a worker thread leaves in shared memory for its parent to take when it next looks,
 * instead of a message: a message wakes the parent's thread, and the runner looks on its beat,
 * which wakes it anyway (batched-worker.ts, docs/monitoring.md "One timer for the runner").
 *
 * One SharedArrayBuffer: a header of three 32-bit integers (a lock, the bytes used, the answers
 * waiting), then the batches left so far, each its length and its bytes in V8's serialization
 * (what `postMessage` copies with). Both sides hold the lock only to copy bytes in or out.
 */
import { deserialize, serialize } from 'node:v8';

const LOCK = 0;
const USED = 1;
const WAITING = 2;
const HEADER_BYTES = 16;
const LENGTH_BYTES = 4;

/** The room for answers: a few thousand runs' results. A batch that does not fit goes as a message. */
export const MAILBOX_BYTES = 512 * 1024;

export class AnswerMailbox {
  readonly #header: Int32Array;
  readonly #bytes: Buffer;

  /** A new mailbox, or the one another thread made (`buffer`). */
  constructor(readonly buffer = new SharedArrayBuffer(HEADER_BYTES + MAILBOX_BYTES)) {
    this.#header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.#bytes = Buffer.from(buffer, HEADER_BYTES);
  }

  /** How many answers wait to be taken. */
  get waiting(): number {
    return Atomics.load(this.#header, WAITING);
  }

  /** Leaves a batch of `count` answers: false when it does not fit (the caller posts it). */
  put(batch: unknown, count: number): boolean {
    const bytes = serialize(batch);
    this.#lock();
    try {
      const used = this.#header[USED];
      if (used + LENGTH_BYTES + bytes.length > this.#bytes.length) return false;
      this.#bytes.writeUInt32LE(bytes.length, used);
      bytes.copy(this.#bytes, used + LENGTH_BYTES);
      this.#header[USED] = used + LENGTH_BYTES + bytes.length;
      this.#header[WAITING] += count;
      return true;
    } finally {
      this.#unlock();
    }
  }

  /** Takes every batch left so far, oldest first. */
  take(): unknown[] {
    if (this.waiting === 0) return [];
    this.#lock();
    let copy: Buffer;
    try {
      copy = Buffer.from(this.#bytes.subarray(0, this.#header[USED]));
      this.#header[USED] = 0;
      this.#header[WAITING] = 0;
    } finally {
      this.#unlock();
    }
    const batches: unknown[] = [];
    for (let at = 0; at < copy.length; ) {
      const length = copy.readUInt32LE(at);
      batches.push(deserialize(copy.subarray(at + LENGTH_BYTES, at + LENGTH_BYTES + length)));
      at += LENGTH_BYTES + length;
    }
    return batches;
  }

  #lock(): void {
    // Held for a copy of a few kilobytes at most: spinning is cheaper than sleeping.
    while (Atomics.compareExchange(this.#header, LOCK, 0, 1) !== 0);
  }

  #unlock(): void {
    Atomics.store(this.#header, LOCK, 0);
  }
}
