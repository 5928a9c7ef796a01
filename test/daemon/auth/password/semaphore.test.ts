import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSemaphore } from '../../../../daemon/auth/password/semaphore.js';

/** A promise with its settle functions, for driving tasks step by step. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createSemaphore', () => {
  it('runs at most `limit` tasks at once and queues the rest', async () => {
    const semaphore = createSemaphore(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      semaphore.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect([semaphore.active, semaphore.pending]).toEqual([2, 2]);

    gates[1].resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect([semaphore.active, semaphore.pending]).toEqual([2, 1]);

    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect([semaphore.active, semaphore.pending]).toEqual([0, 0]);
  });

  it('serves waiters in arrival order, ahead of newcomers', async () => {
    const semaphore = createSemaphore(1);
    const gate = deferred();
    const order: string[] = [];
    const first = semaphore.run(() => gate.promise);
    const waiters = ['a', 'b', 'c'].map((name) => semaphore.run(async () => void order.push(name)));
    gate.resolve();
    await first;
    const late = semaphore.run(async () => void order.push('late'));
    await Promise.all([...waiters, late]);
    expect(order).toEqual(['a', 'b', 'c', 'late']);
  });

  it('frees the slot when a task fails, synchronously or not', async () => {
    const semaphore = createSemaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      semaphore.run(() => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    await expect(semaphore.run(async () => 'after')).resolves.toBe('after');
    expect(semaphore.active).toBe(0);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the limit %s', (limit) => {
    expect(() => createSemaphore(limit)).toThrow(RangeError);
  });

  it('never exceeds its limit and runs every task, whatever the timings (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 3 }), fails: fc.boolean() }), { maxLength: 25 }),
        async (limit, tasks) => {
          const semaphore = createSemaphore(limit);
          let running = 0;
          let peak = 0;
          const results = await Promise.allSettled(
            tasks.map(({ delay, fails }, index) =>
              semaphore.run(async () => {
                running += 1;
                peak = Math.max(peak, running);
                expect(semaphore.active).toBeLessThanOrEqual(limit);
                for (let i = 0; i < delay; i += 1) await tick();
                running -= 1;
                if (fails) throw new Error(String(index));
                return index;
              }),
            ),
          );
          expect(peak).toBeLessThanOrEqual(limit);
          // Tasks that all wait at least once overlap, so every slot gets used.
          if (tasks.every((task) => task.delay > 0)) expect(peak).toBe(Math.min(limit, tasks.length));
          results.forEach((result, index) => {
            expect(result.status).toBe(tasks[index].fails ? 'rejected' : 'fulfilled');
          });
          expect([semaphore.active, semaphore.pending]).toEqual([0, 0]);
        },
      ),
    );
  });
});
