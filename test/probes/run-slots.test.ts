import { describe, expect, it } from 'vitest';
import { createRunSlots } from '../../probes/run-slots.js';

describe('run slots (a bound on runs under way at once)', () => {
  it('hands slots out in arrival order, and a waiter that gives up leaves the queue', async () => {
    const slots = createRunSlots(1);
    const order: string[] = [];
    const first = await slots.acquire(new AbortController().signal);
    const quitter = new AbortController();
    const gaveUp = slots.acquire(quitter.signal).then(
      () => order.push('quitter'),
      (reason: Error) => order.push(`quitter gave up: ${reason.message}`),
    );
    const patient = slots.acquire(new AbortController().signal).then((release) => {
      order.push('patient');
      return release;
    });
    expect({ active: slots.active, pending: slots.pending }).toEqual({ active: 1, pending: 2 });
    quitter.abort(new Error('timeout'));
    await gaveUp;
    expect(slots.pending).toBe(1);
    first();
    first(); // a second release of the same slot changes nothing
    const release = await patient;
    expect(order).toEqual(['quitter gave up: timeout', 'patient']);
    expect({ active: slots.active, pending: slots.pending }).toEqual({ active: 1, pending: 0 });
    release();
    expect(slots.active).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => createRunSlots(0)).toThrow(/positive integer/);
  });
});
