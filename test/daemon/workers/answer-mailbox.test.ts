import { describe, expect, it } from 'vitest';
import { AnswerMailbox, MAILBOX_BYTES } from '../../../daemon/workers/answer-mailbox.js';

// The shared memory a probe thread leaves its answers in (daemon/workers/answer-mailbox.ts).
describe('an answer mailbox', () => {
  it('gives back the batches left in it, oldest first, once, and counts the answers waiting', () => {
    const mailbox = new AnswerMailbox();
    expect(mailbox.take()).toEqual([]);
    expect(mailbox.put([[1, true, { status: 'up', latencyMs: 3 }]], 1)).toBe(true);
    expect(
      mailbox.put(
        [
          [2, false, 'refused'],
          [3, true, { at: new Date(5) }],
        ],
        2,
      ),
    ).toBe(true);
    expect(mailbox.waiting).toBe(3);
    expect(mailbox.take()).toEqual([
      [[1, true, { status: 'up', latencyMs: 3 }]],
      [
        [2, false, 'refused'],
        [3, true, { at: new Date(5) }],
      ],
    ]);
    expect(mailbox.waiting).toBe(0);
    expect(mailbox.take()).toEqual([]);
  });

  it('is one memory for both sides: what one view leaves, a view of the same buffer takes', () => {
    const parent = new AnswerMailbox();
    const worker = new AnswerMailbox(parent.buffer);
    worker.put(['from the worker'], 1);
    expect(parent.waiting).toBe(1);
    expect(parent.take()).toEqual([['from the worker']]);
    expect(worker.waiting).toBe(0);
  });

  it('refuses a batch that does not fit, keeps what it holds, and has room again once taken', () => {
    const mailbox = new AnswerMailbox();
    const half = 'x'.repeat(MAILBOX_BYTES / 2);
    expect(mailbox.put([half], 1)).toBe(true);
    expect(mailbox.put([half], 1)).toBe(false);
    expect(mailbox.waiting).toBe(1);
    expect(mailbox.take()).toEqual([[half]]);
    expect(mailbox.put([half], 1)).toBe(true);
  });
});
